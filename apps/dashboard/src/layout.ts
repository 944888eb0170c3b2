/** The header (business selector, environment switch, user, sign-out) and the main navigation. */
import type { Environment } from "@timbre/sdk";
import { h, replace } from "./lib/dom.js";
import { ENV_NAMES } from "./lib/format.js";
import { endSession, user } from "./lib/session.js";
import { BASE, currentPath, navigate } from "./router.js";
import { state } from "./state.js";

/** Entries with the permission they need; a session holds every permission (API.md §2), an entry may still ask. */
const NAV: Array<[string, string, string?]> = [
  ["/documentos", "Documentos"],
  ["/recibidos", "Recibidos", "received:read"],
  ["/empresas", "Empresas"],
  ["/folios", "Folios (CAF)"],
  ["/claves", "Claves API"],
  ["/webhooks", "Webhooks"],
];

export function renderChrome(signedIn: boolean): void {
  const header = document.getElementById("header");
  const nav = document.getElementById("nav");
  if (!header || !nav) return;
  document.body.classList.toggle("env-live", signedIn && state.environment() === "live");
  const brand = h("a", { href: `${BASE}/`, class: "brand", "data-link": true }, h("span", { class: "brand-mark", "aria-hidden": "true" }, "T"), "Timbre");
  if (!signedIn) {
    replace(header, h("div", { class: "header-inner" }, brand));
    replace(nav);
    nav.hidden = true;
    return;
  }
  nav.hidden = false;
  replace(header, h("div", { class: "header-inner" }, brand, businessSelect(), environmentSwitch(), userMenu()));
  const path = currentPath();
  replace(
    nav,
    h(
      "ul",
      null,
      ...NAV.filter(([, , permission]) => permission === undefined || holds(permission)).map(([href, text]) =>
        h("li", null, h("a", { href: `${BASE}${href}`, "data-link": true, "aria-current": path.startsWith(href) ? "page" : undefined }, text)),
      ),
    ),
  );
}

/** Whether the signed-in credential grants `permission`: the dashboard signs in with a session, which grants all. */
function holds(_permission: string): boolean {
  return user() !== null;
}

function businessSelect(): HTMLElement {
  const list = state.businesses();
  const selected = state.business()?.id ?? "";
  const select = h(
    "select",
    { id: "business-select", disabled: list.length === 0 },
    ...(list.length === 0
      ? [h("option", { value: "" }, "Sin empresas")]
      : list.map((b) => h("option", { value: b.id, selected: b.id === selected }, `${b.razon_social} · ${b.rut}`))),
  );
  select.addEventListener("change", () => state.setBusiness(select.value || null));
  return h("div", { class: "header-field business" }, h("label", { for: "business-select" }, "Empresa"), select);
}

function environmentSwitch(): HTMLElement {
  const current = state.environment();
  const option = (env: Environment) =>
    h(
      "label",
      { class: `seg seg-${env}` },
      h("input", { type: "radio", name: "environment", value: env, checked: current === env, onchange: () => state.setEnvironment(env) }),
      h("span", null, ENV_NAMES[env]),
    );
  return h(
    "fieldset",
    { class: "header-field env-switch", "aria-describedby": "env-hint" },
    h("legend", null, "Ambiente"),
    h("div", { class: "segmented" }, option("test"), option("live")),
    h("span", { id: "env-hint", class: "sr-only" }, current === "live" ? "Estás viendo datos de producción (SII real)." : "Estás viendo datos de prueba."),
  );
}

function userMenu(): HTMLElement {
  const u = user();
  return h(
    "div",
    { class: "header-field user" },
    h("span", { class: "user-name", title: u?.email ?? "" }, u?.nombre ?? u?.email ?? ""),
    h(
      "button",
      {
        type: "button",
        class: "btn btn-secondary btn-small",
        onclick: () => {
          endSession("signout");
        },
      },
      "Salir",
    ),
  );
}

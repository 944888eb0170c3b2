/**
 * API keys of the selected business: create (name, environment, permissions), the key shown once, list with
 * prefix…last4 and last use, revoke with confirmation. The full key exists only in the one-time panel.
 */
import { PERMISSIONS as PERMISSION_NAMES, type ApiKey, type Business, type CreatedApiKey, type Environment, type Permission } from "@timbre/sdk";
import { api } from "../lib/api.js";
import { h, replace, uid } from "../lib/dom.js";
import { ENV_NAMES, whenShort } from "../lib/format.js";
import { describeError } from "../lib/messages.js";
import type { PageContext } from "../router.js";
import { state } from "../state.js";
import { badge, card, empty, notice, pageHeader, table } from "../ui/components.js";
import { confirmDialog } from "../ui/dialog.js";
import { busy, field, formAlert, showError, value } from "../ui/form.js";
import { secretPanel, type SecretView } from "../ui/secret.js";
import { requireBusiness } from "./require-business.js";

/** What each permission lets a key do, in the dashboard's words; the list itself is the SDK's (one for everyone). */
const GRANTS: Record<(typeof PERMISSION_NAMES)[number], string> = {
  "dte:read": "Leer documentos, estados, PDF, XML y eventos",
  "dte:write": "Emitir, previsualizar y anular documentos",
  "businesses:read": "Leer los datos de la empresa",
  "businesses:write": "Modificar la empresa, su certificado y su webhook",
  "numerations:read": "Leer los folios (CAF)",
  "numerations:write": "Subir CAF",
  "tokens:read": "Listar claves API",
  "tokens:write": "Crear y revocar claves API",
  "received:read": "Leer documentos recibidos de proveedores",
  "received:write": "Importar, aceptar y reclamar documentos recibidos",
};

export const PERMISSIONS = PERMISSION_NAMES.map((permission) => [permission, GRANTS[permission]] as const);

export async function keysPage(ctx: PageContext): Promise<void> {
  const b = requireBusiness(ctx, "Claves API");
  if (!b) return;
  const listRegion = h("div", null);
  const secretRegion = h("div", null);
  let secret: SecretView | null = null;
  ctx.onLeave(() => secret?.dispose());
  const reload = async () => replace(listRegion, await keyTable(b, reload));
  await reload();
  const form = createForm(b, async (created) => {
    secret?.dispose();
    secret = secretPanel(
      `Clave «${created.name}» creada`,
      created.key,
      "Copia esta clave ahora: es la única vez que se muestra. Guárdala en un gestor de secretos; si la pierdes, revócala y crea otra.",
      () => {
        secret = null;
      },
    );
    replace(secretRegion, secret.element);
    await reload();
  });
  replace(
    ctx.main,
    pageHeader("Claves API", `Credenciales para que tu sistema emita documentos como ${b.razon_social}. Las claves sk_test_ operan en pruebas y sk_live_ en producción.`),
    secretRegion,
    card("Claves de la empresa", listRegion),
    h("div", { class: "form-narrow" }, card("Nueva clave", form)),
  );
}

function createForm(b: Business, onCreated: (k: CreatedApiKey) => Promise<void>): HTMLFormElement {
  const env = state.environment();
  const all = h("input", { type: "checkbox", id: "perm-all", name: "perm-all" });
  const boxes = PERMISSIONS.map(([perm, text]) => {
    const id = uid("perm");
    return h("div", { class: "check" }, h("input", { type: "checkbox", id, name: "permissions", value: perm, checked: perm.startsWith("dte:") }), h("label", { for: id }, h("code", null, perm), h("span", { class: "check-desc" }, text)));
  });
  // "Todos" ticks and locks every box; unticking it unlocks them (as they were) for a finer choice.
  const syncAll = () => {
    for (const box of boxes) {
      const input = box.querySelector("input");
      if (!input) continue;
      if (all.checked) input.checked = true;
      input.disabled = all.checked;
    }
  };
  all.addEventListener("change", syncAll);
  const form = h(
    "form",
    { novalidate: true, class: "stack", "aria-label": "Nueva clave API" },
    formAlert(),
    field({ name: "name", label: "Nombre", required: true, hint: "Para reconocerla, ej.: «ERP producción».", attrs: { maxlength: 100, autocomplete: "off" } }),
    h(
      "fieldset",
      { class: "subfields", "data-field": "environment" },
      h("legend", null, "Ambiente"),
      ...(["test", "live"] as Environment[]).map((e) => {
        const id = uid("env");
        return h("div", { class: "check" }, h("input", { type: "radio", id, name: "environment", value: e, checked: e === env }), h("label", { for: id }, ENV_NAMES[e], h("span", { class: "check-desc" }, e === "test" ? "sk_test_…" : "sk_live_… (SII real)")));
      }),
      h("p", { class: "field-error", "aria-live": "polite" }),
    ),
    h(
      "fieldset",
      { class: "subfields", "data-field": "permissions" },
      h("legend", null, "Permisos"),
      h("div", { class: "check" }, all, h("label", { for: "perm-all" }, h("strong", null, "Todos los permisos (*)"), h("span", { class: "check-desc" }, "Incluye los que se agreguen en el futuro"))),
      h("div", { class: "perm-grid" }, ...boxes),
      h("p", { class: "field-error", "aria-live": "polite" }),
    ),
    h("button", { type: "submit", class: "btn" }, "Crear clave"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const permissions: Permission[] = all.checked
      ? ["*"]
      : [...form.querySelectorAll<HTMLInputElement>("input[name=permissions]:checked")].map((i) => i.value as Permission);
    const environment = (form.querySelector<HTMLInputElement>("input[name=environment]:checked")?.value ?? env) as Environment;
    try {
      const created = await busy(form, "Creando…", () => api.post<CreatedApiKey>("/tokens", { name: value(form, "name"), permissions, environment, business_id: b.id }));
      form.reset();
      syncAll();
      await onCreated(created);
    } catch (error) {
      showError(form, error);
    }
  });
  return form;
}

async function keyTable(b: Business, reload: () => Promise<void>): Promise<HTMLElement> {
  const { data } = await api.list<ApiKey>("/tokens", { limit: 100 });
  const keys = data.filter((k) => k.business_id === b.id);
  if (keys.length === 0) return empty("Esta empresa no tiene claves.", h("p", null, "Crea una para conectar tu sistema."));
  const message = h("div", { "aria-live": "polite" });
  return h(
    "div",
    null,
    message,
    table<ApiKey>("Claves API", [
      { label: "Nombre", cell: (k) => k.name },
      { label: "Clave", cell: (k) => h("span", { class: "mono nowrap" }, `${k.prefix}…${k.last4}`) },
      { label: "Ambiente", cell: (k) => badge(ENV_NAMES[k.environment] ?? k.environment, k.environment === "live" ? "live" : "neutral") },
      { label: "Permisos", cell: (k) => h("span", { class: "small" }, k.permissions.join(", ")) },
      { label: "Creada", cell: (k) => whenShort(k.created_at) },
      { label: "Último uso", cell: (k) => (k.last_used_at ? whenShort(k.last_used_at) : "Nunca") },
      {
        label: "Estado",
        cell: (k) =>
          k.revoked_at
            ? badge("Revocada", "bad")
            : h("button", { type: "button", class: "btn btn-danger-ghost btn-small", "aria-label": `Revocar la clave ${k.name}`, onclick: () => void revoke(k, reload, message) }, "Revocar"),
      },
    ], keys),
  );
}

async function revoke(k: ApiKey, reload: () => Promise<void>, message: HTMLElement): Promise<void> {
  const ok = await confirmDialog({
    title: `¿Revocar la clave «${k.name}»?`,
    body: `La clave ${k.prefix}…${k.last4} dejará de funcionar de inmediato. Los sistemas que la usen recibirán 401.`,
    confirm: "Revocar clave",
    danger: true,
  });
  if (!ok) return;
  try {
    await api.del(`/tokens/${k.id}`);
    await reload();
  } catch (error) {
    replace(message, notice("error", describeError(error)));
  }
}

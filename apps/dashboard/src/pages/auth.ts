/** Sign in and sign up. On success the session starts and the user goes where they were heading. */
import type { Session } from "@timbre/sdk";
import { api } from "../lib/api.js";
import { h, replace } from "../lib/dom.js";
import { startSession } from "../lib/session.js";
import { navigate, type PageContext } from "../router.js";
import { state } from "../state.js";
import { link } from "../ui/components.js";
import { busy, field, formAlert, rawValue, showError, value } from "../ui/form.js";

function nextPath(query: URLSearchParams): string {
  const next = query.get("next") ?? "/";
  // Only paths inside the dashboard: never an absolute or protocol-relative URL.
  return /^\/(?!\/)[^\s]*$/.test(next) ? next : "/";
}

async function afterSignIn(session: Session, query: URLSearchParams): Promise<void> {
  startSession(session);
  await state.reloadBusinesses();
  navigate(state.businesses().length === 0 ? "/empresas/nueva" : nextPath(query), true);
}

function authShell(title: string, intro: string, form: HTMLFormElement, footer: HTMLElement): HTMLElement {
  return h(
    "div",
    { class: "auth" },
    h("section", { class: "card auth-card" }, h("h1", { tabindex: "-1" }, title), h("p", { class: "muted" }, intro), form, footer),
  );
}

export function loginPage(ctx: PageContext): void {
  const form = h(
    "form",
    { novalidate: true, "aria-labelledby": "login-title" },
    formAlert(),
    field({ name: "email", label: "Correo electrónico", type: "email", required: true, attrs: { autocomplete: "email" } }),
    field({ name: "password", label: "Contraseña", type: "password", required: true, attrs: { autocomplete: "current-password" } }),
    h("button", { type: "submit", class: "btn btn-block" }, "Ingresar"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const session = await busy(form, "Ingresando…", () =>
        api.anonymous<Session>("/auth/login", { email: value(form, "email"), password: rawValue(form, "password") }),
      );
      await afterSignIn(session, ctx.query);
    } catch (error) {
      showError(form, error);
    }
  });
  const expired = ctx.query.has("expirada") ? h("p", { class: "notice notice-info", role: "status" }, "Tu sesión terminó. Vuelve a ingresar.") : null;
  const shell = authShell("Ingresar", "Administra tus documentos tributarios electrónicos.", form, h("p", { class: "auth-footer" }, "¿No tienes cuenta? ", link("/dashboard/registro", "Crea una")));
  if (expired) shell.querySelector("form")?.before(expired);
  shell.querySelector("h1")?.setAttribute("id", "login-title");
  replace(ctx.main, shell);
}

export function registerPage(ctx: PageContext): void {
  const form = h(
    "form",
    { novalidate: true, "aria-labelledby": "register-title" },
    formAlert(),
    field({ name: "nombre", label: "Nombre", required: true, attrs: { autocomplete: "name" } }),
    field({ name: "email", label: "Correo electrónico", type: "email", required: true, attrs: { autocomplete: "email" } }),
    field({
      name: "password",
      label: "Contraseña",
      type: "password",
      required: true,
      hint: "Mínimo 10 caracteres.",
      attrs: { autocomplete: "new-password", minlength: 10 },
    }),
    h("button", { type: "submit", class: "btn btn-block" }, "Crear cuenta"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const session = await busy(form, "Creando cuenta…", () =>
        api.anonymous<Session>("/auth/register", { nombre: value(form, "nombre"), email: value(form, "email"), password: rawValue(form, "password") }),
      );
      await afterSignIn(session, ctx.query);
    } catch (error) {
      showError(form, error);
    }
  });
  const shell = authShell("Crear cuenta", "Emite facturas y boletas electrónicas al SII desde tu sistema.", form, h("p", { class: "auth-footer" }, "¿Ya tienes cuenta? ", link("/dashboard/ingresar", "Ingresa")));
  shell.querySelector("h1")?.setAttribute("id", "register-title");
  replace(ctx.main, shell);
}

/**
 * «Intercambio» on the business page (API.md §12, doors 2 and 3): the business's own intercambio address
 * (`intercambio.email`, read-only, with a copy button and what to register it as at the SII), and a mailbox the
 * business keeps elsewhere (`intercambio.imap_url`, write-only: a secret never shown back; only host, user, the last
 * check and its error from `intercambio.imap` are). Works with servers that do not report `imap` yet.
 */
import type { Business } from "@timbre/sdk";
import { api } from "../lib/api.js";
import { h, replace, type Child } from "../lib/dom.js";
import { when } from "../lib/format.js";
import { card } from "../ui/components.js";
import { confirmDialog } from "../ui/dialog.js";
import { busy, field, formAlert, showAlert, showError } from "../ui/form.js";
import { copyText } from "../ui/secret.js";

/** What a mailbox check reports (host and user only: the password stays sealed on the server). */
export interface ImapStatus {
  host: string;
  user: string;
  ultimo_chequeo_at: string | null;
  error: string | null;
}

type WithIntercambio = Business & { intercambio?: { email: string | null; imap?: ImapStatus | null } };

/** The fixed list of mailbox errors, in Spanish. */
export const IMAP_ERRORS: Record<string, string> = {
  auth: "El usuario o la contraseña de la casilla no son correctos.",
  tls: "No se pudo establecer una conexión segura (TLS) con el servidor de correo.",
  unreachable: "No se pudo conectar con el servidor de correo (revisa el host y el puerto).",
  mailbox: "La carpeta indicada no existe en la casilla.",
};

export function intercambioSection(b: Business, onUpdated: (b: Business) => void): HTMLElement {
  const biz = b as WithIntercambio;
  const email = biz.intercambio?.email ?? null;
  const status = h("span", { class: "copy-status", role: "status", "aria-live": "polite" });
  const address = h("input", { id: "intercambio-email", type: "text", readonly: true, value: email ?? "", class: "mono", "aria-describedby": "intercambio-hint", autocomplete: "off", spellcheck: "false" });
  const copy = h("button", { type: "button", class: "btn btn-secondary", disabled: !email }, "Copiar");
  copy.addEventListener("click", async () => {
    status.textContent = (await copyText(address.value, address)) ? "Copiado al portapapeles." : "No se pudo copiar: selecciona el texto y cópialo.";
  });
  const mailbox = h("div", { "aria-live": "polite" }, ...imapView(biz.intercambio?.imap));
  const form = h(
    "form",
    { class: "stack", novalidate: true, "aria-label": "Casilla de correo propia" },
    formAlert(),
    field({
      name: "intercambio.imap_url",
      label: "URL de la casilla IMAP",
      type: "password",
      hint: "imaps://usuario:contraseña@servidor:993/INBOX. Se guarda cifrada y no se vuelve a mostrar; escríbela de nuevo para cambiarla.",
      attrs: { autocomplete: "off", spellcheck: "false" },
    }),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "submit", class: "btn btn-secondary" }, "Guardar casilla"),
      h("button", { type: "button", class: "btn btn-danger-ghost", hidden: !biz.intercambio?.imap, "data-testid": "remove-imap", onclick: () => void removeMailbox() }, "Quitar casilla"),
    ),
  );
  const remove = form.querySelector<HTMLButtonElement>("[data-testid=remove-imap]");
  const input = form.querySelector<HTMLInputElement>("input[name='intercambio.imap_url']");
  const save = async (imapUrl: string | null, done: string) => {
    try {
      const updated = await busy(form, "Guardando…", () => api.put<Business>(`/businesses/${b.id}`, { intercambio: { imap_url: imapUrl } }));
      if (input) input.value = ""; // write-only: never kept in the page
      onUpdated(updated);
      const imap = (updated as WithIntercambio).intercambio?.imap;
      replace(mailbox, ...imapView(imap));
      if (remove) remove.hidden = !imap;
      const alert = form.querySelector<HTMLElement>(".alert");
      if (alert) showAlert(alert, done, "success");
    } catch (error) {
      showError(form, error);
    }
  };
  const removeMailbox = async () => {
    const ok = await confirmDialog({ title: "¿Quitar la casilla?", body: "Timbre dejará de revisarla. Los documentos ya importados se conservan.", confirm: "Quitar", danger: true });
    if (ok) await save(null, "Casilla quitada.");
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const url = input?.value.trim() ?? "";
    if (url) void save(url, "Casilla guardada. Timbre la revisará cada minuto.");
  });

  const section = card(
    "Intercambio",
    h(
      "div",
      { class: "field" },
      h("label", { for: "intercambio-email" }, "Correo de intercambio de la empresa"),
      email ? h("div", { class: "secret-row" }, address, copy) : h("p", { class: "muted" }, "Este servidor aún no asigna un correo de intercambio."),
      status,
      h(
      "p",
      { class: "hint", id: "intercambio-hint" },
      "Regístralo en el SII (Registro de contribuyentes, «Actualizar datos»: correo de intercambio y mail de contacto SII) para que tus proveedores te envíen sus documentos aquí y Timbre los importe y responda. Timbre también lo usa como respuesta de tus envíos.",
      ),
    ),
    h("h3", null, "Casilla propia (opcional)"),
    h("p", { class: "small muted" }, "Si tus proveedores ya envían a una casilla tuya, Timbre puede revisarla e importar lo que llegue."),
    mailbox,
    form,
  );
  section.dataset.testid = "intercambio";
  return section;
}

function imapView(imap: ImapStatus | null | undefined): Child[] {
  if (!imap) return [h("p", { class: "small" }, "Sin casilla configurada.")];
  return [
    h(
      "dl",
      { class: "facts" },
      h("dt", null, "Servidor"),
      h("dd", { class: "mono wrap" }, imap.host),
      h("dt", null, "Usuario"),
      h("dd", { class: "mono wrap" }, imap.user),
      h("dt", null, "Última revisión"),
      h("dd", null, imap.ultimo_chequeo_at ? when(imap.ultimo_chequeo_at) : "Aún no"),
    ),
    imap.error ? h("div", { class: "notice notice-error", role: "alert" }, IMAP_ERRORS[imap.error] ?? `Error al revisar la casilla: ${imap.error}.`) : null,
  ];
}

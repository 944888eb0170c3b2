/** The business's signing certificate: summary, expiry warning (30 days) and PKCS#12 upload. */
import type { Business } from "@timbre/sdk";
import { api } from "../lib/api.js";
import { h } from "../lib/dom.js";
import { daysUntil, when } from "../lib/format.js";
import { badge, card, notice } from "../ui/components.js";
import { busy, chosenFile, field, formAlert, rawValue, showAlert, showError } from "../ui/form.js";

const WARN_DAYS = 30;

export function certificateBadge(b: Business): HTMLElement {
  const c = b.certificate;
  if (!c) return badge("Sin certificado", "warn");
  const days = daysUntil(c.valid_to);
  if (days < 0) return badge("Vencido", "bad");
  if (days <= WARN_DAYS) return badge(`Vence en ${days} días`, "warn");
  return badge("Vigente", "ok");
}

function summary(b: Business): HTMLElement {
  const c = b.certificate;
  if (!c) return notice("warn", "Esta empresa no tiene certificado digital: no podrá firmar ni emitir documentos hasta que subas uno.");
  const days = daysUntil(c.valid_to);
  const warning =
    days < 0
      ? notice("error", `El certificado venció el ${when(c.valid_to)}. Sube uno vigente para seguir emitiendo.`)
      : days <= WARN_DAYS
        ? notice("warn", `El certificado vence en ${days} días (${when(c.valid_to)}). Renuévalo con tu proveedor y súbelo aquí.`)
        : null;
  return h(
    "div",
    null,
    warning,
    h(
      "dl",
      { class: "facts" },
      h("dt", null, "Titular"),
      h("dd", null, c.nombre_titular),
      h("dt", null, "RUT del titular"),
      h("dd", { class: "mono" }, c.rut_titular ?? "—"),
      h("dt", null, "Válido desde"),
      h("dd", null, when(c.valid_from)),
      h("dt", null, "Válido hasta"),
      h("dd", null, when(c.valid_to), " ", certificateBadge(b)),
      h("dt", null, "Emisor"),
      h("dd", null, c.emisor),
      h("dt", null, "Huella SHA-256"),
      h("dd", { class: "mono small wrap" }, c.fingerprint_sha256),
    ),
  );
}

export function certificateSection(b: Business, onUpdated: (b: Business) => void): HTMLElement {
  const body = h("div", null, summary(b));
  let section: HTMLElement;
  const form = h(
    "form",
    { novalidate: true, class: "stack", "aria-label": "Subir certificado" },
    formAlert(),
    field({ name: "file", label: "Archivo del certificado (.p12 / .pfx)", type: "file", required: true, attrs: { accept: ".p12,.pfx,application/x-pkcs12" } }),
    field({ name: "password", label: "Contraseña del certificado", type: "password", required: true, hint: "Se usa sólo para abrir el archivo; no se guarda.", attrs: { autocomplete: "off" } }),
    h("button", { type: "submit", class: "btn" }, b.certificate ? "Reemplazar certificado" : "Subir certificado"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = chosenFile(form, "file", "Elige el archivo del certificado.");
    if (!file) {
      (form.elements.namedItem("file") as HTMLElement | null)?.focus();
      return;
    }
    const data = new FormData();
    data.set("file", file, file.name);
    data.set("password", rawValue(form, "password"));
    try {
      const updated = await busy(form, "Verificando…", () => api.upload<Business>(`/businesses/${b.id}/certificate`, data));
      form.reset();
      // Redraw the whole section (summary, headings, button label) and confirm inside it.
      const next = certificateSection(updated, onUpdated);
      section.replaceWith(next);
      const nextAlert = next.querySelector<HTMLElement>(".alert");
      if (nextAlert) showAlert(nextAlert, "Certificado guardado.", "success");
      onUpdated(updated);
    } catch (error) {
      showError(form, error);
    }
  });
  section = card("Certificado digital", body, h("h3", null, b.certificate ? "Reemplazar certificado" : "Subir certificado"), form);
  return section;
}

/**
 * «Importar XML»: an EnvioDTE a supplier sent (≤ 5 MiB) uploaded as a file (`POST /received`, multipart field `file`,
 * byte for byte), then one line per document of the envelope: imported (linked, with its verification), already
 * received, or why it was not kept. A whole envelope refused (`ENVELOPE_INVALID`) is said in Spanish by its reason.
 */
import type { ReceivedImportResult } from "@timbre/sdk";
import { api, ApiError } from "../lib/api.js";
import { h, replace } from "../lib/dom.js";
import { money } from "../lib/format.js";
import { describeError } from "../lib/messages.js";
import { deadlineBadge, isVerified, receivedTipoName, verificationFailures } from "../lib/received-words.js";
import type { PageContext } from "../router.js";
import { badge, card, link, pageHeader, table } from "../ui/components.js";
import { busy, chosenFile, field, formAlert, showError } from "../ui/form.js";
import { requireBusiness } from "./require-business.js";

type Result = ReceivedImportResult["results"][number];
const MAX_BYTES = 5 * 1024 * 1024;

export function receivedImportPage(ctx: PageContext): void {
  const b = requireBusiness(ctx, "Importar XML recibido");
  if (!b) return;
  const results = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    { class: "stack", novalidate: true, "aria-label": "Importar un XML recibido" },
    formAlert(),
    field({ name: "file", label: "Archivo XML (EnvioDTE)", type: "file", hint: "El XML que el proveedor te envió por correo, tal como llegó (máximo 5 MiB).", attrs: { accept: ".xml,application/xml,text/xml" } }),
    field({ name: "reply_to", label: "Correo del emisor para las respuestas (opcional)", type: "email", hint: "Solo se usa si el emisor no tiene correo de intercambio registrado en el SII.", attrs: { maxlength: 254, autocomplete: "off" } }),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "btn" }, "Importar")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = chosenFile(form, "file", "Elige el archivo XML que te envió el proveedor.");
    if (!file) return;
    if (file.size > MAX_BYTES) return showError(form, new ApiError(413, "PAYLOAD_TOO_LARGE", "too large"));
    const body = new FormData();
    body.set("file", file, file.name);
    const replyTo = (form.elements.namedItem("reply_to") as HTMLInputElement | null)?.value.trim();
    if (replyTo) body.set("reply_to", replyTo);
    replace(results);
    try {
      const answer = await busy(form, "Importando…", () => api.upload<ReceivedImportResult>("/received", body));
      replace(results, resultsCard(file.name, answer.results));
    } catch (error) {
      showError(form, error);
    }
  });
  replace(
    ctx.main,
    pageHeader("Importar XML recibido", "Para documentos que no llegaron al correo de intercambio.", link("/dashboard/recibidos", "← Recibidos", "btn btn-secondary")),
    card(null, form),
    results,
  );
}

function resultsCard(filename: string, list: Result[]): HTMLElement {
  const ok = list.filter((r) => r.success && !r.duplicate).length;
  const section = card(
    `Resultado de ${filename}`,
    h("p", null, `${list.length} documento${list.length === 1 ? "" : "s"} en el sobre: ${ok} importado${ok === 1 ? "" : "s"}.`),
    table<Result>("Documentos del sobre", [
      { label: "N°", cell: (r) => String(r.index + 1), className: "num" },
      { label: "Documento", cell: (r) => (r.data ? link(`/dashboard/recibidos/${r.data.id}`, `${receivedTipoName(r.data.tipo)} N° ${r.data.folio}`) : "—") },
      { label: "Emisor", cell: (r) => (r.data ? h("span", null, r.data.emisor.razon_social, h("br"), h("span", { class: "mono small muted" }, r.data.emisor.rut)) : "—") },
      { label: "Total", cell: (r) => (r.data ? money(r.data.monto_total) : "—"), className: "num" },
      { label: "Resultado", cell: outcome },
    ], list),
  );
  section.dataset.testid = "import-results";
  return section;
}

function outcome(r: Result): HTMLElement {
  if (!r.success || !r.data) return h("span", null, badge("No importado", "bad"), " ", r.error ? describeError(new ApiError(422, r.error.code, r.error.message, (r.error.details ?? {}) as Record<string, unknown>)) : "");
  if (r.duplicate) return h("span", null, badge("Ya recibido", "neutral"), " Este documento ya estaba importado.");
  if (!isVerified(r.data)) return h("span", null, badge("No verificado", "bad"), " ", verificationFailures(r.data.verificacion).join(" "));
  return h("span", null, badge("Importado", "ok"), " ", badge(...deadlineBadge(r.data)));
}

/**
 * Emit a document from the dashboard, for businesses without a system of their own. The form checks everything with
 * `POST /dte/preview` (no folio) before asking for confirmation, then emits with an `Idempotency-Key` that is reused
 * while the same body is retried — a lost answer or a second click never takes a second folio.
 *
 * `?tipo=61&referencia=dte_…` (or 56) starts a note on that document: its receptor, lines and date filled in,
 * the reason left to the user. `?copiar=dte_…` starts a new document like that one (same tipo, receptor, lines and
 * options; today's date): the monthly invoice to the same client. `?facturar=dte_…` starts the factura that bills
 * that guía de despacho, referencing it.
 */
import type { Dte, DteDetail, Issuer, Numeration } from "@timbre/sdk";
import { api, ApiError } from "../lib/api.js";
import { h, replace } from "../lib/dom.js";
import { chileToday, ENV_NAMES, money, tipoName } from "../lib/format.js";
import { navigate, type PageContext } from "../router.js";
import { state } from "../state.js";
import { link, pageHeader, setFlash } from "../ui/components.js";
import { confirmDialog } from "../ui/dialog.js";
import { busy, showError } from "../ui/form.js";
import { emissionForm, type Draft } from "./document-form.js";
import { copyDraft, editableReceptor, invoiceDraft, noteDraft } from "./drafts.js";
import { emissionWarnings } from "./emission-warnings.js";
import { requireBusiness } from "./require-business.js";

interface PreviewResult {
  totals: { monto_total: number };
}

export async function newDocumentPage(ctx: PageContext): Promise<void> {
  const b = requireBusiness(ctx, "Emitir documento");
  if (!b) return;
  const environment = state.environment();
  const [numerations, draft] = await Promise.all([
    api.list<Numeration>(`/businesses/${b.id}/numerations`, { estado: "activa", limit: 100 }).then((r) => r.data).catch(() => null),
    draftFrom(ctx.query),
  ]);
  const today = chileToday();
  const foliosHint = (tipo: number): string | null => {
    if (!numerations) return null;
    const left = numerations.filter((n) => n.tipo === tipo).reduce((sum, n) => sum + n.disponibles, 0);
    return left === 0 ? "No quedan folios de este tipo: sube un CAF en «Folios (CAF)» antes de emitir." : `Quedan ${left.toLocaleString("es-CL")} folios.`;
  };
  const knownReceptor = async (rut: string) => {
    const last = (await api.list<Dte>("/dte", { receptor_rut: rut, limit: 1 })).data[0];
    return last ? editableReceptor((await api.get<DteDetail>(`/dte/${last.id}`)).receptor) : null;
  };
  const listedIssuer = (rut: string) =>
    api.get<Issuer>(`/issuers/${encodeURIComponent(rut)}`).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    });
  const { form, read, preview } = emissionForm({ draft, today, foliosHint, knownReceptor, listedIssuer, maxLines: (t) => (t === 39 || t === 41 ? 1000 : 60), submitLabel: "Emitir" });
  const urls: string[] = [];
  ctx.onLeave(() => urls.forEach((u) => URL.revokeObjectURL(u)));

  let attempt: { body: string; key: string } | null = null;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const body = read();
      const checked = await busy(form, "Revisando…", () => api.post<PreviewResult>("/dte/preview", body));
      const receptor = body.receptor.rut === "66666666-6" ? "un consumidor final" : `${body.receptor.razon_social} (${body.receptor.rut})`;
      const ok = await confirmDialog({
        title: `¿Emitir ${tipoName(body.tipo)} por ${money(checked.totals.monto_total)}?`,
        body: `Para ${receptor}. Se usará el siguiente folio y el documento se enviará al SII (${ENV_NAMES[environment]}). Un documento emitido no se borra: se corrige o anula con una nota de crédito o débito.`,
        confirm: "Emitir",
      });
      if (!ok) return;
      const json = JSON.stringify(body);
      if (attempt?.body !== json) attempt = { body: json, key: crypto.randomUUID() };
      const key = attempt.key;
      const dte = await busy(form, "Emitiendo…", () => api.post<Dte>("/dte/emit", body, { "idempotency-key": key }));
      attempt = null;
      setFlash(
        dte.estado === "PENDIENTE"
          ? `${tipoName(dte.tipo)} N° ${dte.folio} emitida. El SII no respondió a tiempo: Timbre la enviará automáticamente.`
          : `${tipoName(dte.tipo)} N° ${dte.folio} emitida y enviada al SII.`,
      );
      navigate(`/documentos/${dte.id}`);
    } catch (error) {
      showError(form, error);
    }
  });

  form.querySelector<HTMLButtonElement>("[data-action=preview]")?.addEventListener("click", async () => {
    try {
      const body = read();
      replace(preview, h("p", { class: "loading", role: "status" }, "Generando vista previa…"));
      const blob = await api.postBlob("/dte/preview", body, { format: "pdf" });
      const href = URL.createObjectURL(new Blob([blob], { type: "application/pdf" }));
      urls.push(href);
      replace(
        preview,
        h("iframe", { src: href, title: "Vista previa del documento (sin validez tributaria)", class: "pdf-frame", "data-testid": "preview-frame" }),
        h("p", { class: "small muted" }, "¿No ves el PDF? ", h("a", { href, target: "_blank", rel: "noopener" }, "Ábrelo en otra pestaña"), "."),
      );
    } catch (error) {
      replace(preview);
      showError(form, error);
    }
  });

  replace(
    ctx.main,
    pageHeader(draft.referencia ? `Emitir ${tipoName(draft.tipo ?? 61).toLowerCase()}` : "Emitir documento", `${b.razon_social} · ${ENV_NAMES[environment]}`, link("/dashboard/documentos", "← Documentos", "btn btn-secondary")),
    ...emissionWarnings(b, environment),
    form,
  );
}

/** The starting point: empty, a tipo, or a note on an existing document. */
async function draftFrom(query: URLSearchParams): Promise<Draft> {
  const tipo = Number(query.get("tipo")) || undefined;
  const note = query.get("referencia");
  const copy = query.get("copiar");
  const bill = query.get("facturar");
  const id = note ?? copy ?? bill;
  if (!id) return { tipo };
  const d = await api.get<DteDetail>(`/dte/${id}`).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  });
  if (!d) return { tipo };
  if (note) return noteDraft(d, tipo === 56 ? 56 : 61);
  return bill && d.tipo === 52 ? invoiceDraft(d) : copyDraft(d);
}

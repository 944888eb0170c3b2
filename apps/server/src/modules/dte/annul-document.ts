/**
 * `POST /v1/dte/:id/anular`: issues the credit note (61, CodRef 1) that annuls an own document, copying its
 * receptor and items (exempt documents' lines stay exempt; a 46's keep their retention codes, so the 61 retains the
 * same IVA). An export is annulled by an export note (`annulExportRequest`); a 43 by a 61 that repeats its settled
 * documents and commissions (`annulLiquidationRequest`). REFERENCE_INVALID for a rejected, already annulled
 * or credit-note document (a 61 is annulled with a debit note 56). Optional body `{ razon?, fecha?, receptor? }`:
 * `receptor` fields override the copied ones. A boleta's anonymous consumer is copied as is: a note that modifies a
 * boleta needs no giro or address (core's `validateReceiver`).
 */
import type { Static } from "@sinclair/typebox";
import { isExemptTipo } from "@timbre/core";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { ApiError } from "../../http/errors.js";
import { assertValid } from "../../http/validation.js";
import { createDocument, type IdempotencyRecord } from "./create-document.js";
import { uploadAndAnswer, type Emitted } from "./emit-document.js";
import { findDocument } from "./find-document.js";
import { prepareEmission } from "./prepare-emission.js";
import { assertNotAnnulled } from "./resolve-references.js";
import { AnularBody } from "./schemas.js";
import { requestOf } from "./stored-document.js";
import type { ExportRequest, LiquidationRequest } from "./tipo-bodies.js";
import { isExportRequestTipo } from "./tipo-inputs.js";

type AnnulOptions = Static<typeof AnularBody>;

/** The optional body, checked (a reason that is not text was once ignored without a word); none is `{}`. */
function readAnnulOptions(body: unknown): AnnulOptions {
  return body === undefined || body === null || body === "" ? {} : assertValid(AnularBody, body);
}

const invalid = (message: string, reason: string) => new ApiError("REFERENCE_INVALID", message, { reason });

export async function annulDocument(deps: Deps, scope: BusinessScope, id: string, body: unknown, idempotency: IdempotencyRecord = null): Promise<Emitted> {
  const options = readAnnulOptions(body);
  const original = await findDocument(deps, scope, id);
  if (original.tipo === 61) throw invalid("a credit note is annulled with a debit note (56), not with another credit note", "annuls_credit_note");
  if (original.estado === "RECHAZADO") throw invalid("the document was rejected by the SII: there is nothing to annul", "rejected");
  await assertNotAnnulled(deps.db, original);
  const ownRequest = annulExportRequest(original, options) ?? annulLiquidationRequest(original, options);
  if (ownRequest) {
    const prepared = await prepareEmission(deps, scope, ownRequest);
    return uploadAndAnswer(deps, await createDocument(deps, scope, prepared, idempotency), prepared.business);
  }
  const source = requestOf(original);
  const exempt = isExemptTipo(original.tipo);
  const request: Record<string, unknown> = {
    tipo: 61,
    receptor: { ...source.receptor, ...options.receptor },
    items: source.items.map((item) => (exempt ? { ...item, exento: true } : item)),
    referencia: {
      tipo_doc: original.tipo,
      folio: original.folio,
      fecha: original.fecha,
      razon: options.razon ?? "Anula documento",
      codigo: 1,
    },
  };
  if (options.fecha !== undefined) request.fecha = options.fecha;
  for (const key of ["precios_brutos", "descuento_global_porcentaje", "forma_pago"] as const) {
    if (source[key] !== undefined) request[key] = source[key];
  }
  const prepared = await prepareEmission(deps, scope, request);
  const row = await createDocument(deps, scope, prepared, idempotency);
  return uploadAndAnswer(deps, row, prepared.business);
}

/**
 * An export document is annulled by an export note (BRIEF-doctypes §4): a 110 or 111 by a 112, a 112 by a 111, with
 * the same buyer, lines, currency, exchange rate and customs data (its freight and insurance are part of the total
 * the note must carry). Customs references (DUS…) are not copied. Null for other tipos.
 */
function annulExportRequest(original: { tipo: number; folio: number; fecha: string; request: unknown }, options: AnnulOptions): Record<string, unknown> | null {
  if (!isExportRequestTipo(original.tipo)) return null;
  const source = original.request as ExportRequest;
  const request: Record<string, unknown> = {
    tipo: original.tipo === 112 ? 111 : 112,
    receptor: source.receptor,
    items: source.items,
    moneda: source.moneda,
    tipo_cambio: source.tipo_cambio,
    referencia: { tipo_doc: original.tipo, folio: original.folio, fecha: original.fecha, razon: options.razon ?? "Anula documento", codigo: 1 },
  };
  if (options.fecha !== undefined) request.fecha = options.fecha;
  for (const key of ["exportacion", "forma_pago_exportacion", "fecha_cancelacion"] as const) {
    if (source[key] !== undefined) request[key] = source[key];
  }
  return request;
}

/**
 * A 43 is annulled by a 61 (DTEType has no 43) that repeats its settled documents as lines and its commissions in
 * `Totales/Comisiones` and `Comisiones`, so the note's `MntTotal` is the 43's (REF-2-780 compares them; formato DTE
 * A121–A124 and zone F). A 61 is a `Documento`, whose amounts cannot be negative (MontoType): a 43 with a negative
 * settled document or commission cannot be annulled whole by one note (REFERENCE_INVALID `negative_amounts`).
 * Null for other tipos.
 */
function annulLiquidationRequest(original: { tipo: number; folio: number; fecha: string; request: unknown }, options: AnnulOptions): Record<string, unknown> | null {
  if (original.tipo !== 43) return null;
  const source = original.request as LiquidationRequest;
  const amounts = [...source.liquidacion.documentos.map((d) => d.monto), ...(source.liquidacion.comisiones ?? []).flatMap((c) => [c.monto_neto, c.monto_exento ?? 0])];
  if (amounts.some((m) => m < 0)) {
    throw invalid("a liquidación-factura with negative amounts cannot be annulled by one credit note, whose amounts cannot be negative: issue the notes (61, 56) of what it corrects", "negative_amounts");
  }
  const request: Record<string, unknown> = {
    tipo: 61,
    receptor: { ...source.receptor, ...options.receptor },
    liquidacion: source.liquidacion,
    referencia: { tipo_doc: 43, folio: original.folio, fecha: original.fecha, razon: options.razon ?? "Anula documento", codigo: 1 },
  };
  if (options.fecha !== undefined) request.fecha = options.fecha;
  if (source.forma_pago !== undefined) request.forma_pago = source.forma_pago;
  return request;
}

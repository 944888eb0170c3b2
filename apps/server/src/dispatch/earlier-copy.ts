/**
 * A rejection of a document that was re-sent is checked against the SII before it is believed.
 *
 * Reconciliation re-sends a document whose upload went unanswered once QueryEstDte says `FAU` after a quiet period
 * (`reconcile-document.ts`) — but the SII also answers `FAU` while it is still processing, so a slow SII may yet
 * register the first copy. The second copy is then rejected as a repeated folio (DTE-3-100), and believing that
 * rejection would mark RECHAZADO a document the SII holds. So when a document meets a rejection and an earlier
 * envelope of it has an unknown outcome — or its envelope is a repeated file (`RPT`) — QueryEstDte decides: `DOK`
 * means the earlier copy stands; otherwise the rejection stands, with a line saying where its reason is.
 */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { stateFromDocumentStatus } from "@timbre/core/lifecycle";
import { envelopes, siiComparedTotal, type DocumentHead, type SiiStatusSnapshot } from "../db/documents.js";
import type { Deps } from "../deps.js";
import type { SiiSession } from "./sii-session.js";
import { siiError } from "./sii-snapshot.js";

/** Whether another envelope carrying this document may have reached the SII (its upload's outcome unknown). */
export async function hasUnsettledEarlierEnvelope(deps: Deps, doc: DocumentHead): Promise<boolean> {
  const [row] = await deps.db
    .select({ id: envelopes.id })
    .from(envelopes)
    .where(
      and(
        eq(envelopes.businessId, doc.businessId),
        eq(envelopes.environment, doc.environment),
        inArray(envelopes.status, ["unknown", "uploading"]),
        doc.envelopeId === null ? undefined : ne(envelopes.id, doc.envelopeId),
        sql`${envelopes.layout} @> ${JSON.stringify([[doc.id]])}::jsonb`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** What the SII says of a rejected document's other copy: it holds it (the rejection was the repeat's), or not. */
export type EarlierCopy =
  | { accepted: true; sii: SiiStatusSnapshot; detalle: string }
  | { accepted: false; sii: SiiStatusSnapshot };

/**
 * Asks the SII (QueryEstDte) about a document this envelope rejected while another copy of it may stand. `DOK` →
 * accepted, with the snapshot and words saying so. Otherwise the rejection stands, and the snapshot gains a line
 * saying why it may read as a repeat: the SII got this folio before, in an upload whose answer was lost, and does
 * not hold it as received — that first upload rejected it, and its reason is in the SII's result e-mail for it.
 */
export async function checkEarlierCopy(session: SiiSession, doc: DocumentHead, rejected: SiiStatusSnapshot, why: "resent" | "repeated_file"): Promise<EarlierCopy> {
  const status = await session.client.getDocumentStatus({ rutEmisor: session.business.rut, rutReceptor: doc.receptorRut, tipo: doc.tipo, folio: doc.folio, fecha: doc.fecha, monto: siiComparedTotal(doc) });
  const repeated = rejected.errores[0]?.codigo ?? rejected.estado_envio ?? "rechazo";
  if (stateFromDocumentStatus(status.estado).kind !== "received") {
    const line = siiError(status.estado, "estdte", why === "resent"
      ? "el documento se reenvió después de un envío anterior cuya respuesta no se leyó, y el SII no lo tiene como recibido"
      : "este archivo ya se había enviado (RPT), y el SII no tiene el documento como recibido");
    const ayuda = why === "resent"
      ? "Si este envío lo rechazó como repetido (DTE-3-100), fue el envío anterior el que lo rechazó: el motivo está en el correo de resultado de ese envío que el SII manda a la empresa. Corrija y emita el documento de nuevo, con un folio nuevo."
      : "El primer envío de este archivo rechazó el documento: el motivo está en el correo de resultado de ese envío que el SII manda a la empresa. Corrija y emita el documento de nuevo, con un folio nuevo.";
    return { accepted: false, sii: { ...rejected, errores: [...rejected.errores, { ...line, ayuda }] } };
  }
  const line = siiError(status.estado, "estdte", `el SII ya tenía este documento de un envío anterior; el rechazo de este envío (${repeated}) es el de la copia repetida`);
  return { accepted: true, sii: { ...rejected, errores: [line] }, detalle: `aceptado por el SII (${status.estado}; recibido en un envío anterior, el reenvío fue rechazado: ${repeated})` };
}

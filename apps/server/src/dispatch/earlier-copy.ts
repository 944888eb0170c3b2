/**
 * A rejection of a document that was re-sent is checked against the SII before it is believed.
 *
 * Reconciliation re-sends a document whose upload went unanswered once QueryEstDte says `FAU` after a quiet period
 * (`reconcile-document.ts`) — but the SII also answers `FAU` while it is still processing, so a slow SII may yet
 * register the first copy. The second copy is then rejected as a repeated folio (DTE-3-100), and believing that
 * rejection would mark RECHAZADO a document the SII holds. So when a document meets a rejection and an earlier
 * envelope of it has an unknown outcome, QueryEstDte decides: `DOK` means the earlier copy stands.
 */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { stateFromDocumentStatus } from "@timbre/core/lifecycle";
import { envelopes, type DocumentHead, type SiiStatusSnapshot } from "../db/documents.js";
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

/**
 * The snapshot and words of a document the SII holds from an earlier upload although this envelope rejected it;
 * null when the SII does not hold it (the rejection stands).
 */
export async function earlierCopyAccepted(session: SiiSession, doc: DocumentHead, rejected: SiiStatusSnapshot): Promise<{ sii: SiiStatusSnapshot; detalle: string } | null> {
  const status = await session.client.getDocumentStatus({ rutEmisor: session.business.rut, rutReceptor: doc.receptorRut, tipo: doc.tipo, folio: doc.folio, fecha: doc.fecha, monto: doc.montoTotal });
  if (stateFromDocumentStatus(status.estado).kind !== "received") return null;
  const repeated = rejected.errores[0]?.codigo ?? rejected.estado_envio ?? "rechazo";
  const line = siiError(status.estado, "estdte", `el SII ya tenía este documento de un envío anterior; el rechazo de este envío (${repeated}) es el de la copia repetida`);
  return { sii: { ...rejected, errores: [line] }, detalle: `aceptado por el SII (${status.estado}; recibido en un envío anterior, el reenvío fue rechazado: ${repeated})` };
}

/**
 * `intercambio` of `GET /v1/dte/:id` (API.md §11): the delivery of the document to its receiver, read from the
 * exchange outbox (`entrega` rows). The latest delivery gives `estado`, `destinatarios` and `error`; `intentos` counts
 * the SMTP attempts of all of them; `enviado_at` is the last successful send. `respuestas` are the receiver's answers
 * to the document as they arrived (`record-receiver-answer.ts`), oldest first.
 */
import { and, asc, desc, eq } from "drizzle-orm";
import { documentAnswers } from "../../db/answers.js";
import type { DocumentRow } from "../../db/documents.js";
import { exchangeOutbox, type OutboxRow } from "../../db/received.js";
import type { Executor } from "../../db/tx.js";
import { DELIVERED_TIPOS } from "../../intercambio/queue-deliveries.js";

export type DeliveryState = "PENDIENTE" | "ENVIADO" | "FALLIDO" | "SIN_DESTINATARIO" | "SIN_CORREO" | "NO_APLICA";

export interface IntercambioView {
  destinatarios: string[];
  estado: DeliveryState;
  enviado_at: string | null;
  intentos: number;
  error: string | null;
  respuestas: { tipo: "recepcion" | "resultado" | "recibo"; codigo: number; glosa: string; at: string }[];
}

const ACCEPTED = new Set(["ACEPTADO", "ACEPTADO_CON_REPAROS"]);

/** The contract's state of one outbox row; a skipped row says why in its `error` (`NO_APLICA`, `SIN_CORREO: …`). */
function stateOf(row: OutboxRow): DeliveryState {
  if (row.state === "sent") return "ENVIADO";
  if (row.state === "pending" || row.state === "retrying") return "PENDIENTE";
  if (row.state === "failed") return "FALLIDO";
  const reason = (row.error ?? "").split(":")[0] as DeliveryState;
  return ["SIN_DESTINATARIO", "SIN_CORREO", "NO_APLICA"].includes(reason) ? reason : "FALLIDO";
}

/** Before any delivery row: waiting for the SII's acceptance (a delivered tipo on its way), or nothing to send. */
function withoutDelivery(doc: Pick<DocumentRow, "tipo" | "estado">): DeliveryState {
  return DELIVERED_TIPOS.has(doc.tipo) && doc.estado !== "RECHAZADO" && !ACCEPTED.has(doc.estado) ? "PENDIENTE" : "NO_APLICA";
}

/** The receiver's answers to the document, oldest first. */
async function answersOf(db: Executor, documentId: string): Promise<IntercambioView["respuestas"]> {
  const rows = await db
    .select()
    .from(documentAnswers)
    .where(eq(documentAnswers.documentId, documentId))
    .orderBy(asc(documentAnswers.receivedAt), asc(documentAnswers.fingerprint));
  return rows.map((r) => ({ tipo: r.kind, codigo: r.codigo, glosa: r.glosa, at: r.receivedAt.toISOString() }));
}

export async function intercambioOf(db: Executor, doc: Pick<DocumentRow, "id" | "tipo" | "estado">): Promise<IntercambioView> {
  const respuestas = await answersOf(db, doc.id);
  const rows = await db
    .select()
    .from(exchangeOutbox)
    .where(and(eq(exchangeOutbox.subjectId, doc.id), eq(exchangeOutbox.kind, "entrega")))
    .orderBy(desc(exchangeOutbox.createdAt), desc(exchangeOutbox.id));
  const latest = rows[0];
  const sent = rows.find((r) => r.sentAt !== null);
  if (!latest) return { destinatarios: [], estado: withoutDelivery(doc), enviado_at: null, intentos: 0, error: null, respuestas };
  const estado = stateOf(latest);
  return {
    destinatarios: latest.recipients,
    estado,
    enviado_at: sent?.sentAt?.toISOString() ?? null,
    intentos: rows.reduce((n, r) => n + r.attempts, 0),
    error: estado === "ENVIADO" || estado === "NO_APLICA" || estado === "PENDIENTE" && latest.attempts === 0 ? null : latest.error,
    respuestas,
  };
}

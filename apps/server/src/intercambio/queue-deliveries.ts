/**
 * The one call emission makes for intercambio (API.md §11): when documents reach ACEPTADO or ACEPTADO_CON_REPAROS,
 * one durable `entrega` row per exchanged document is added to the outbox in the same transaction. It is cheap (one
 * INSERT); the mail worker builds the receiver's envelope and the PDF, and sends it, later — emission never waits.
 */
import { exchangeOutbox } from "../db/received.js";
import type { Executor } from "../db/tx.js";
import { newId } from "../ids.js";

/** Tipos delivered to their receiver on acceptance (boletas only through `POST /dte/{id}/enviar`). */
export const DELIVERED_TIPOS: ReadonlySet<number> = new Set([33, 34, 43, 46, 52, 56, 61, 110, 111, 112]);

export interface AcceptedDocument {
  id: string;
  businessId: string;
  environment: "test" | "live";
  tipo: number;
}

export async function queueDeliveries(tx: Executor, accepted: AcceptedDocument[], at: Date): Promise<void> {
  const rows = accepted
    .filter((d) => DELIVERED_TIPOS.has(d.tipo))
    .map((d) => ({
      id: newId("mail"),
      businessId: d.businessId,
      environment: d.environment,
      kind: "entrega" as const,
      subjectId: d.id,
      recipients: [],
      replyTo: null,
      subject: "",
      body: "",
      attachments: [],
      state: "pending" as const,
      dueAt: at,
      createdAt: at,
    }));
  if (rows.length > 0) await tx.insert(exchangeOutbox).values(rows);
}

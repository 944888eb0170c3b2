/**
 * The only way a document changes `estado` (ARCHITECTURE §2 invariant): the transition is checked by
 * `core/lifecycle`, the row is updated only if it still has the expected state (so two workers cannot both apply
 * a change), the change is appended to the history and recorded as a `dte.status_changed` event with its first
 * webhook delivery — all in the caller's transaction.
 */
import { transition } from "@timbre/core/lifecycle";
import { and, eq, sql } from "drizzle-orm";
import { businesses } from "../../db/businesses.js";
import { documentHistory, documents, type DocumentRow, type DocumentState } from "../../db/documents.js";
import { events, webhookDeliveries } from "../../db/events.js";
import type { Tx } from "../../db/tx.js";
import { newId } from "../../ids.js";

export interface StateChange {
  document: Pick<DocumentRow, "id" | "businessId" | "environment" | "tipo" | "folio" | "estado">;
  to: DocumentState;
  at: Date;
  detalle?: string | null;
  /** Extra columns to set with the change (track id, SII snapshot, next check…). */
  set?: Partial<Pick<DocumentRow, "trackId" | "envelopeId" | "sii" | "nextCheckAt" | "checkAttempts">>;
}

/** Applies the change; returns false when another worker changed the document first. */
export async function changeDocumentState(tx: Tx, change: StateChange): Promise<boolean> {
  const { document, to, at } = change;
  transition(document.estado, to);
  const updated = await tx
    .update(documents)
    .set({ ...change.set, estado: to, updatedAt: at })
    .where(and(eq(documents.id, document.id), eq(documents.estado, document.estado)))
    .returning({ id: documents.id });
  if (updated.length === 0) return false;
  // Two independent statements (the history row and the event + delivery), sent together: postgres.js pipelines
  // queries issued at once on the transaction's connection.
  await Promise.all([
    tx.insert(documentHistory).values({ id: newId("history"), documentId: document.id, estado: to, at, detalle: change.detalle ?? null }),
    recordEvent(tx, {
      businessId: document.businessId,
      environment: document.environment,
      event: "dte.status_changed",
      at,
      data: {
        dte_id: document.id,
        tipo: document.tipo,
        folio: document.folio,
        old_status: document.estado,
        new_status: to,
        timestamp: at.toISOString(),
      },
    }),
  ]);
  return true;
}

export interface NewEvent {
  businessId: string;
  environment: "test" | "live";
  event: string;
  data: Record<string, unknown>;
  at: Date;
}

/**
 * Stores an event and, when the business has a webhook URL, its first delivery (due now), in ONE statement: the
 * event is inserted in a CTE and the delivery is an `INSERT … SELECT` from it joined to the business row.
 */
export async function recordEvent(tx: Tx, event: NewEvent): Promise<string> {
  const id = newId("event");
  const col = (c: { name: string }) => sql.identifier(c.name);
  await tx.execute(sql`
    with inserted as (
      insert into ${events} (${col(events.id)}, ${col(events.businessId)}, ${col(events.environment)}, ${col(events.event)}, ${col(events.data)}, ${col(events.createdAt)})
      values (${id}, ${event.businessId}, ${event.environment}, ${event.event}, ${JSON.stringify(event.data)}::jsonb, ${event.at.toISOString()}::timestamptz)
      returning ${col(events.id)}, ${col(events.businessId)}
    )
    insert into ${webhookDeliveries} (${col(webhookDeliveries.id)}, ${col(webhookDeliveries.eventId)}, ${col(webhookDeliveries.attempt)}, ${col(webhookDeliveries.state)}, ${col(webhookDeliveries.dueAt)})
    select ${newId("delivery")}::text, inserted.${col(events.id)}, 1, 'pending', ${event.at.toISOString()}::timestamptz
    from inserted join ${businesses} on ${businesses.id} = inserted.${col(events.businessId)}
    where ${businesses.webhookUrl} is not null`);
  return id;
}

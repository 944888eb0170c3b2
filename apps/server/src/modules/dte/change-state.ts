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
  document: ChangedDocument;
  to: DocumentState;
  at: Date;
  detalle?: string | null;
  /** Extra columns to set with the change (track id, SII snapshot, next check…). */
  set?: Partial<Pick<DocumentRow, "trackId" | "envelopeId" | "sii" | "nextCheckAt" | "checkAttempts">>;
}

type ChangedDocument = Pick<DocumentRow, "id" | "businessId" | "environment" | "tipo" | "folio" | "estado">;

/** The same change applied to several documents (e.g. every document of an envelope the SII received). */
export interface StateChanges extends Omit<StateChange, "document"> {
  documents: ChangedDocument[];
}

/** Applies the change; returns false when another worker changed the document first. */
export async function changeDocumentState(tx: Tx, change: StateChange): Promise<boolean> {
  const { document, ...common } = change;
  return (await changeDocumentStates(tx, { ...common, documents: [document] })).has(document.id);
}

/**
 * Applies one change to many documents with a fixed number of statements whatever their number (an UPDATE per
 * distinct current state, then the history rows and the events + deliveries together): the row lists travel
 * as one JSON parameter, so the statement text is the same for 1 or 500 documents and stays a named prepared
 * statement. Returns the ids actually changed (a document someone else changed first is left out, with no
 * history or event).
 */
export async function changeDocumentStates(tx: Tx, change: StateChanges): Promise<Set<string>> {
  const { to, at } = change;
  const byState = new Map<DocumentState, ChangedDocument[]>();
  for (const doc of change.documents) {
    transition(doc.estado, to);
    byState.set(doc.estado, [...(byState.get(doc.estado) ?? []), doc]);
  }
  const updated = await Promise.all(
    [...byState].map(([from, docs]) =>
      tx
        .update(documents)
        .set({ ...change.set, estado: to, updatedAt: at })
        .where(and(sql`${documents.id} in (select jsonb_array_elements_text(${JSON.stringify(docs.map((d) => d.id))}::jsonb))`, eq(documents.estado, from)))
        .returning({ id: documents.id }),
    ),
  );
  const applied = new Set(updated.flat().map((r) => r.id));
  const docs = change.documents.filter((d) => applied.has(d.id));
  if (docs.length === 0) return applied;
  // Two independent statements sent together: postgres.js pipelines queries issued at once on one connection.
  const history = docs.map((d) => ({ id: newId("history"), document_id: d.id, estado: to, at: at.toISOString(), detalle: change.detalle ?? null }));
  await Promise.all([
    tx.execute(sql`
      insert into ${documentHistory} (${col(documentHistory.id)}, ${col(documentHistory.documentId)}, ${col(documentHistory.estado)}, ${col(documentHistory.at)}, ${col(documentHistory.detalle)})
      select id, document_id, estado, at, detalle
      from jsonb_to_recordset(${JSON.stringify(history)}::jsonb) as t(id text, document_id text, estado text, at timestamptz, detalle text)`),
    recordEvents(
      tx,
      docs.map((document) => ({
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
      })),
    ),
  ]);
  return applied;
}

const col = (c: { name: string }) => sql.identifier(c.name);

export interface NewEvent {
  businessId: string;
  environment: "test" | "live";
  event: string;
  data: Record<string, unknown>;
  at: Date;
}

/** Stores an event and, when the business has a webhook URL, its first delivery (`recordEvents`). */
export async function recordEvent(tx: Tx, event: NewEvent): Promise<string> {
  const [id] = await recordEvents(tx, [event]);
  return id!;
}

/**
 * Stores events and, for each whose business has a webhook URL, its first delivery (due at once), in ONE
 * statement: the rows arrive as one JSON parameter, the events are inserted in a CTE and the deliveries are an
 * `INSERT … SELECT` from it joined to the business rows.
 */
export async function recordEvents(tx: Tx, list: NewEvent[]): Promise<string[]> {
  if (list.length === 0) return [];
  const rows = list.map((e) => ({
    id: newId("event"),
    delivery_id: newId("delivery"),
    business_id: e.businessId,
    environment: e.environment,
    event: e.event,
    data: e.data,
    at: e.at.toISOString(),
  }));
  await tx.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as t(id text, delivery_id text, business_id text, environment text, event text, data jsonb, at timestamptz)
    ), inserted as (
      insert into ${events} (${col(events.id)}, ${col(events.businessId)}, ${col(events.environment)}, ${col(events.event)}, ${col(events.data)}, ${col(events.createdAt)})
      select id, business_id, environment, event, data, at from input
      returning ${col(events.id)}
    )
    insert into ${webhookDeliveries} (${col(webhookDeliveries.id)}, ${col(webhookDeliveries.eventId)}, ${col(webhookDeliveries.attempt)}, ${col(webhookDeliveries.state)}, ${col(webhookDeliveries.dueAt)})
    select input.delivery_id, input.id, 1, 'pending', input.at
    from inserted join input on input.id = inserted.${col(events.id)}
    join ${businesses} on ${businesses.id} = input.business_id
    where ${businesses.webhookUrl} is not null`);
  return rows.map((r) => r.id);
}

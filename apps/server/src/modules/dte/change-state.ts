/**
 * The only way a document changes `estado` (an invariant of ARCHITECTURE.md): the transition is checked by
 * `core/lifecycle`, the row is updated only if it still has the expected state (so two workers cannot both apply
 * a change), the change is appended to the history and recorded as a `dte.status_changed` event with its first
 * webhook delivery — all in one statement, in the caller's transaction or on its own.
 */
import { transition } from "@timbre/core/lifecycle";
import { eq, sql, type SQL } from "drizzle-orm";
import { businesses } from "../../db/businesses.js";
import { columnName as col } from "../../db/columns.js";
import { documentHistory, documents, envelopes, type DocumentRow, type DocumentState } from "../../db/documents.js";
import { StatementTemplates, type Placeholders } from "../../db/statement-template.js";
import { planBySize } from "../../db/preparing-client.js";
import { events, webhookDeliveries } from "../../db/events.js";
import { rowsOf } from "../../db/rows.js";
import { ACCEPTANCE_TIPOS } from "../../dispatch/acceptance.js";
import type { Executor, Tx } from "../../db/tx.js";
import { newId } from "../../ids.js";
import { queueDeliveries } from "../../intercambio/queue-deliveries.js";

export interface StateChange {
  document: ChangedDocument;
  to: DocumentState;
  at: Date;
  detalle?: string | null;
  /** Extra columns to set with the change (track id, SII snapshot, next check…). */
  set?: Partial<Pick<DocumentRow, "trackId" | "envelopeId" | "sii" | "nextCheckAt" | "checkAttempts">>;
  /**
   * On a change to ACEPTADO or ACEPTADO_CON_REPAROS: how long after it the acceptance worker first asks the SII's
   * registry about the facturas (33/34) among the documents (`firstAcceptanceCheckMs`). Without it, never.
   */
  acceptanceCheckAfterMs?: number;
}

type ChangedDocument = Pick<DocumentRow, "id" | "businessId" | "environment" | "tipo" | "folio" | "estado">;

/** The same change applied to several documents (e.g. every document of an envelope the SII received). */
export interface StateChanges extends Omit<StateChange, "document"> {
  documents: ChangedDocument[];
  /**
   * The envelope whose upload made the change, updated by the same statement (a CTE), so that it and the change
   * happen together without a transaction of their own.
   */
  envelope?: EnvelopeChange;
}

/** Applies the change; returns false when another worker changed the document first. */
export async function changeDocumentState(tx: Tx, change: StateChange): Promise<boolean> {
  const { document, ...common } = change;
  return (await changeDocumentStates(tx, { ...common, documents: [document] })).has(document.id);
}

/**
 * Applies one change to many documents in ONE statement whatever their number: the UPDATE (each document only from
 * the state the caller saw, so a document someone else changed first is left out) is a CTE whose returned ids
 * select the history rows, the `dte.status_changed` events and their first webhook deliveries inserted by the same
 * statement. The row list travels as one JSON parameter, read once (a materialized CTE), so the statement text is
 * the same for 1 or 500 documents;
 * it is prepared per size class of `documents` (`planBySize`), so its plan is made again as the table grows and the
 * UPDATE finds its rows by primary key however big the table got, without planning every call; its text is rendered
 * once per shape (`db/statement-template.ts`) rather than by drizzle on every call. Runs in the caller's
 * transaction, or on its own (one statement is atomic). Returns the ids actually changed.
 */
export async function changeDocumentStates(tx: Executor, change: StateChanges): Promise<Set<string>> {
  const { to, at } = change;
  for (const doc of change.documents) transition(doc.estado, to);
  if (change.documents.length === 0) return new Set();
  const atText = at.toISOString();
  const rows = change.documents.map((d) => ({
    id: d.id,
    estado: d.estado,
    history_id: newId("history"),
    event_id: newId("event"),
    delivery_id: newId("delivery"),
    business_id: d.businessId,
    environment: d.environment,
    data: { dte_id: d.id, tipo: d.tipo, folio: d.folio, old_status: d.estado, new_status: to, timestamp: atText },
  }));
  // An accepted factura enters the registry of acceptances and claims: the acceptance worker asks about it later.
  const acceptance = (to === "ACEPTADO" || to === "ACEPTADO_CON_REPAROS") && change.acceptanceCheckAfterMs !== undefined;
  const set = change.set ?? {};
  const setKeys = (Object.keys(set) as Array<keyof typeof set>).filter((k) => set[k] !== undefined).sort();
  const envelope = change.envelope;
  const envelopeKeys = envelope ? (Object.keys(envelope.set) as Array<keyof EnvelopeChange["set"]>).filter((k) => envelope.set[k] !== undefined).sort() : [];
  const values: Record<string, unknown> = {
    input: JSON.stringify(rows),
    to,
    at: atText,
    detalle: change.detalle ?? null,
    acceptanceAfter: acceptance ? `${change.acceptanceCheckAfterMs} milliseconds` : null,
    envelopeId: envelope?.id ?? null,
  };
  for (const k of setKeys) values[`set_${k}`] = set[k];
  for (const k of envelopeKeys) values[`envelope_${k}`] = envelope?.set[k];
  const shape = `${setKeys.join(",")}|${acceptance}|${envelope ? envelopeKeys.join(",") : "-"}`;
  const statement = stateChanges.bind(shape, (p) => stateChangeStatement(tx, p, { setKeys, acceptance, envelopeKeys: envelope ? envelopeKeys : null }), values);
  const result = await tx.execute(statement);
  const changed = new Set(rowsOf<{ id: string }>(result).map((r) => r.id));
  // Intercambio (API.md §11): an accepted document is delivered to its receiver by the mail worker, later.
  if (to === "ACEPTADO" || to === "ACEPTADO_CON_REPAROS") await queueDeliveries(tx, change.documents.filter((d) => changed.has(d.id)), at);
  return changed;
}

/** What may change on the envelope whose upload the state change records (`StateChanges.envelope`). */
export interface EnvelopeChange {
  id: string;
  set: Partial<Pick<typeof envelopes.$inferSelect, "status" | "trackId" | "uploadedAt" | "updatedAt" | "detail">>;
}

/** The state change's statements, one per shape: which columns it sets, whether it schedules acceptance checks, its envelope's columns. */
const stateChanges = new StatementTemplates<Record<string, unknown>>();

/** The state change's statement (see `changeDocumentStates`), every value a placeholder. */
function stateChangeStatement(
  tx: Executor,
  p: Placeholders<Record<string, unknown>>,
  shape: { setKeys: string[]; acceptance: boolean; envelopeKeys: string[] | null },
): SQL {
  // A placeholder where a column's value goes: drizzle wraps it with the column, whose encoder the value then gets.
  const value = (name: string) => p(name) as unknown as SQL;
  const extra = Object.fromEntries(shape.setKeys.map((k) => [k, value(`set_${k}`)]));
  const acceptance = shape.acceptance
    ? { acceptanceCheckAt: sql`case when ${documents.tipo} in (${sql.join([...ACCEPTANCE_TIPOS].map((t) => sql.raw(String(t))), sql`, `)}) then ${p("at")}::timestamptz + ${p("acceptanceAfter")}::interval end` }
    : {};
  const update = tx
    .update(documents)
    .set({ ...extra, ...acceptance, estado: value("to"), updatedAt: sql`${p("at")}::timestamptz` })
    // The ids as an array too: `id = any(…)` is what the primary key answers, and its estimate (10 rows, as for any
    // array parameter) keeps the plan on that index from a few dozen pages on; the join with the input alone,
    // estimated at 100 rows, got generic plans that scanned the table (seen with auto_explain, 4 ms a call).
    .where(sql`${documents.id} = any(array(select input.id from input)) and (${documents.id}, ${documents.estado}) in (select input.id, input.estado from input)`)
    .returning({ id: documents.id })
    .getSQL();
  const envelopeSet = shape.envelopeKeys && Object.fromEntries(shape.envelopeKeys.map((k) => [k, value(`envelope_${k}`)]));
  const alongside = envelopeSet ? sql`alongside as (${tx.update(envelopes).set(envelopeSet).where(eq(envelopes.id, p("envelopeId"))).getSQL()}),` : sql``;
  // Planned per size of `documents`: a generic plan made while it is small would scan the whole table ever after.
  return planBySize("documents", sql`
    with ${alongside} input as materialized (
      select * from jsonb_to_recordset(${p("input")}::jsonb)
        as t(id text, estado text, history_id text, event_id text, delivery_id text, business_id text, environment text, data jsonb)
    ),
    changed as (${update}),
    history as (
      insert into ${documentHistory} (${col(documentHistory.id)}, ${col(documentHistory.documentId)}, ${col(documentHistory.estado)}, ${col(documentHistory.at)}, ${col(documentHistory.detalle)})
      select input.history_id, input.id, ${p("to")}::text, ${p("at")}::timestamptz, ${p("detalle")}::text
      from input join changed on changed.id = input.id
    ),
    new_events as (
      select input.event_id as id, input.delivery_id, input.business_id, input.environment, 'dte.status_changed' as event,
        input.data, ${p("at")}::timestamptz as at
      from input join changed on changed.id = input.id
    ),
    ${eventInserts("new_events")}
    select id from changed`);
}

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
 * statement: the rows arrive as one JSON parameter (`eventInserts` does the rest).
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
    ),
    ${eventInserts("input")}
    select 1`);
  return rows.map((r) => r.id);
}

/**
 * Two CTEs of a statement: the events of the CTE named `relation` (columns id, delivery_id, business_id,
 * environment, event, data, at) and, for each whose business has a webhook URL, its first delivery (due at `at`),
 * selected from the events actually inserted. Shared by `recordEvents` and `changeDocumentStates`.
 */
function eventInserts(relation: string): SQL {
  const source = sql.identifier(relation);
  return sql`inserted_events as (
      insert into ${events} (${col(events.id)}, ${col(events.businessId)}, ${col(events.environment)}, ${col(events.event)}, ${col(events.data)}, ${col(events.createdAt)})
      select id, business_id, environment, event, data, at from ${source}
      returning ${col(events.id)}
    ),
    first_deliveries as (
      insert into ${webhookDeliveries} (${col(webhookDeliveries.id)}, ${col(webhookDeliveries.eventId)}, ${col(webhookDeliveries.attempt)}, ${col(webhookDeliveries.state)}, ${col(webhookDeliveries.dueAt)})
      select src.delivery_id, src.id, 1, 'pending', src.at
      from ${source} src join inserted_events on inserted_events.${col(events.id)} = src.id
      join ${businesses} on ${businesses.id} = src.business_id
      where ${businesses.webhookUrl} is not null
    )`;
}

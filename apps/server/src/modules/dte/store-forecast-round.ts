/**
 * A round whose every document was signed ahead with forecast folios (`numerations/folio-forecast.ts`) is stored
 * in ONE autocommitted statement: it takes each group's folios only if they are still exactly the forecast ones —
 * the range's `siguiente` is the forecast's first folio, the run fits in the range, the range is still eligible and
 * no older eligible range of the tipo exists (`allocateFolios`' order) — and inserts that group's documents, their
 * history rows and their Idempotency-Key links with it. A group whose forecast no longer holds takes nothing and
 * stores nothing; the caller creates its documents the general way (a transaction that allocates under the lock).
 *
 * What this saves against the general path: the BEGIN and COMMIT round trips, one statement per group and one for
 * the history rows, and above all the time the ranges' row locks are held — from this statement to its commit
 * only, where the general path holds them across every statement of its transaction, and every other round of the
 * business (any process) waits for them.
 *
 * The ranges are locked in the order of their groups' keys, as `allocateAll` takes them, so this statement and a
 * general round of another process cannot deadlock on two ranges. The rows travel as one JSON parameter and the
 * signed XML of every document and envelope as ONE bytea parameter beside it (`XmlBlob`: each row names its slice),
 * so the statement's text is the same for every round and is prepared once per connection. The XML stays out of
 * the JSON on purpose: PostgreSQL's JSON lexer copies a string character by character; JSON parsing was a fifth of
 * PostgreSQL's CPU at the peak and a third of that went once the XML left it (`perf`, bench/RESULTS.md §6,
 * "2026-11-27, fourth session"); the bytea's hex text is decoded in one pass and each slice is a copy.
 */
import { sql } from "drizzle-orm";
import { columnName as col } from "../../db/columns.js";
import { documentHistory, documents, envelopes, type DocumentRow } from "../../db/documents.js";
import type { StoredEnvelope } from "../../db/envelope-layout.js";
import { rowsOf } from "../../db/rows.js";
import type { Db } from "../../db/open-database.js";
import { eligibleRange } from "../numerations/allocate-folio.js";
import { linkResourcesInStatement, resourceLinksJson, type IdempotencyRecord, type ResourceLink } from "../../http/idempotency.js";
import { statementTemplate } from "../../db/statement-template.js";

/** One group's forecast run: `count` folios from `first` of range `numerationId`, for documents dated `fecha`. */
export interface ForecastRun {
  numerationId: string;
  first: number;
  count: number;
  /** `YYYY-MM-DD` in Chile: ranges expiring on or before it are not eligible. */
  today: string;
  fecha: string;
}

/** A document as the general path would insert it (`documents` columns), with its group and history row id. */
export interface ForecastDocument {
  group: number;
  /** The envelope it travels in when that envelope is stored (`ForecastEnvelope`), else none. */
  envelopeId: string | null;
  historyId: string;
  links: readonly IdempotencyRecord[];
  /** Every column but those left to their defaults (`CREATED_DEFAULTS` of `create-document.ts`). */
  row: Omit<DocumentRow, "trackId" | "envelopeId" | "sii" | "checkAttempts" | "acceptance" | "acceptanceCheckAt">;
}

/** An envelope to store with the documents (`dispatch/round-envelopes.ts`): only if every one of its `runs` is. */
export interface ForecastEnvelope {
  id: string;
  businessId: string;
  environment: string;
  kind: string;
  stored: StoredEnvelope;
  runs: number[];
}

/** A group whose folios were taken: its index in `runs` and its range's bounds (for `numeration.low`). */
export interface StoredRun {
  group: number;
  desde: number;
  hasta: number;
}

/**
 * Stores the groups whose forecast still holds, with their documents, and the envelopes all of whose runs are
 * stored; returns those groups and the ids of those envelopes. `runs` must name distinct ranges and be in the order
 * their ranges are to be locked.
 */
export async function storeForecastRound(
  db: Db,
  input: { runs: ForecastRun[]; documents: ForecastDocument[]; envelopes: ForecastEnvelope[]; at: Date; detalle: string },
): Promise<{ runs: StoredRun[]; envelopes: Set<string> }> {
  const blob = new XmlBlob();
  const groups = JSON.stringify(input.runs.map((r, i) => ({ ord: i, numeration_id: r.numerationId, first: r.first, count: r.count, today: r.today, fecha: r.fecha })));
  const envelopeRows = JSON.stringify(
    input.envelopes.map((e) => ({
      id: e.id,
      business_id: e.businessId,
      environment: e.environment,
      kind: e.kind,
      ...blob.slice(e.stored.xml),
      layout: e.stored.layout,
      runs: e.runs,
    })),
  );
  const docs = JSON.stringify(
    input.documents.map(({ group, envelopeId, historyId, row }) => ({
      ord: group,
      envelope_id: envelopeId,
      history_id: historyId,
      id: row.id,
      business_id: row.businessId,
      environment: row.environment,
      numeration_id: row.numerationId,
      tipo: row.tipo,
      folio: row.folio,
      fecha: row.fecha,
      fecha_emision: row.fechaEmision.toISOString(),
      receptor_rut: row.receptorRut,
      receptor_razon_social: row.receptorRazonSocial,
      monto_neto: row.montoNeto,
      monto_exento: row.montoExento,
      monto_iva: row.montoIva,
      monto_total: row.montoTotal,
      moneda: row.moneda,
      tipo_cambio: row.tipoCambio,
      monto_total_moneda: row.montoTotalMoneda,
      estado: row.estado,
      request: row.request,
      computed: row.computed,
      ...blob.slice(row.xml),
      ted: row.ted,
      next_check_at: row.nextCheckAt?.toISOString() ?? null,
      annuls_document_id: row.annulsDocumentId,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    })),
  );
  const links = input.documents.flatMap((d) => d.links.flatMap((record): ResourceLink[] => (record ? [{ record, resourceId: d.row.id }] : [])));
  const statement = roundStatement({ xml: blob.bytes(), groups, at: input.at.toISOString(), envelopes: envelopeRows, documents: docs, detalle: input.detalle, links: resourceLinksJson(links) });
  const result = await db.execute(statement);
  const rows = rowsOf<{ ord: number | null; desde: number | null; hasta: number | null; envelope_id: string | null }>(result);
  return {
    runs: rows.flatMap((r) => (r.ord === null ? [] : [{ group: Number(r.ord), desde: Number(r.desde), hasta: Number(r.hasta) }])),
    envelopes: new Set(rows.flatMap((r) => (r.envelope_id === null ? [] : [r.envelope_id]))),
  };
}

/** The values of the round's statement. */
interface RoundValues extends Record<string, unknown> {
  xml: Uint8Array;
  groups: string;
  at: string;
  envelopes: string;
  documents: string;
  detalle: string;
  links: string;
}

/**
 * The round's statement, rendered once (`db/statement-template.ts`): drizzle walking this tree on every round cost
 * ≈ 150 µs of the server's thread.
 */
const roundStatement = statementTemplate<RoundValues>((p) => {
  const d = documents;
  const e = envelopes;
  const at = p("at");
  return sql`
    with xml_blob as materialized (select ${p("xml")}::bytea as b),
    grp as materialized (
      select * from json_to_recordset(${p("groups")}::json) as g(ord int, numeration_id text, first bigint, count int, today text, fecha text)
    ),
    locked as (
      select n.id from numerations n join grp g on g.numeration_id = n.id order by g.ord for update of n
    ),
    alloc as (
      update numerations n
      set siguiente = n.siguiente + g.count,
          exhausted_at = case when n.siguiente + g.count > n.hasta then ${at}::timestamptz else n.exhausted_at end
      from grp g
      where n.id = g.numeration_id and n.id in (select id from locked)
        and n.siguiente = g.first and g.first + g.count - 1 <= n.hasta and ${eligibleRange("n", sql`g.today`, sql`g.fecha`)}
        and not exists (
          select 1 from numerations o
          where o.business_id = n.business_id and o.environment = n.environment and o.tipo = n.tipo and o.id <> n.id
            and ${eligibleRange("o", sql`g.today`, sql`g.fecha`)}
            and (o.fecha_autorizacion, o.desde, o.id) < (n.fecha_autorizacion, n.desde, n.id))
      returning g.ord, n.desde, n.hasta
    ),
    env as (
      insert into ${envelopes} (${col(e.id)}, ${col(e.businessId)}, ${col(e.environment)}, ${col(e.kind)}, ${col(e.xml)}, ${col(e.layout)}, ${col(e.status)}, ${col(e.createdAt)}, ${col(e.updatedAt)})
      select v.id, v.business_id, v.environment, v.kind, substring((select b from xml_blob) from v.xml_at for v.xml_len), v.layout, 'uploading', ${at}::timestamptz, ${at}::timestamptz
      from json_to_recordset(${p("envelopes")}::json) as v(id text, business_id text, environment text, kind text, xml_at int, xml_len int, layout jsonb, runs json)
      where not exists (select 1 from json_array_elements_text(v.runs) as run where run::int not in (select ord from alloc))
      returning ${col(e.id)} as id
    ),
    doc as materialized (
      select * from json_to_recordset(${p("documents")}::json) as r(
        ord int, envelope_id text, history_id text, id text, business_id text, environment text, numeration_id text, tipo int, folio bigint,
        fecha text, fecha_emision timestamptz, receptor_rut text, receptor_razon_social text, monto_neto bigint,
        monto_exento bigint, monto_iva bigint, monto_total bigint, moneda text, tipo_cambio numeric, monto_total_moneda numeric, estado text, request jsonb, computed jsonb, xml_at int, xml_len int,
        ted text, next_check_at timestamptz, annuls_document_id text, created_at timestamptz, updated_at timestamptz)
    ),
    ins as (
      insert into ${documents} (${col(d.id)}, ${col(d.businessId)}, ${col(d.environment)}, ${col(d.numerationId)}, ${col(d.tipo)},
        ${col(d.folio)}, ${col(d.fecha)}, ${col(d.fechaEmision)}, ${col(d.receptorRut)}, ${col(d.receptorRazonSocial)},
        ${col(d.montoNeto)}, ${col(d.montoExento)}, ${col(d.montoIva)}, ${col(d.montoTotal)}, ${col(d.moneda)}, ${col(d.tipoCambio)}, ${col(d.montoTotalMoneda)}, ${col(d.estado)}, ${col(d.request)},
        ${col(d.computed)}, ${col(d.xml)}, ${col(d.ted)}, ${col(d.nextCheckAt)}, ${col(d.annulsDocumentId)}, ${col(d.createdAt)},
        ${col(d.updatedAt)}, ${col(d.envelopeId)})
      select r.id, r.business_id, r.environment, r.numeration_id, r.tipo, r.folio, r.fecha, r.fecha_emision, r.receptor_rut,
        r.receptor_razon_social, r.monto_neto, r.monto_exento, r.monto_iva, r.monto_total, r.moneda, r.tipo_cambio, r.monto_total_moneda, r.estado, r.request, r.computed,
        substring((select b from xml_blob) from r.xml_at for r.xml_len), r.ted, r.next_check_at, r.annuls_document_id, r.created_at, r.updated_at,
        (select env.id from env where env.id = r.envelope_id)
      from doc r where r.ord in (select ord from alloc)
      returning ${col(d.id)} as id
    ),
    hist as (
      insert into ${documentHistory} (${col(documentHistory.id)}, ${col(documentHistory.documentId)}, ${col(documentHistory.estado)}, ${col(documentHistory.at)}, ${col(documentHistory.detalle)})
      select r.history_id, r.id, r.estado, r.created_at, ${p("detalle")}::text from doc r where r.id in (select id from ins)
    ),
    ${linkResourcesInStatement(p("links"), sql`(select id from ins)`)}
    select ord, desde, hasta, null::text as envelope_id from alloc
    union all select null, null, null, id from env`;
});

/** The statement's XML: every piece appended to one buffer, each row keeping its slice (1-based, for `substring`). */
class XmlBlob {
  #parts: Uint8Array[] = [];
  #length = 0;

  slice(bytes: Uint8Array): { xml_at: number; xml_len: number } {
    this.#parts.push(bytes);
    const at = this.#length + 1;
    this.#length += bytes.byteLength;
    return { xml_at: at, xml_len: bytes.byteLength };
  }

  bytes(): Buffer {
    return Buffer.concat(this.#parts, this.#length);
  }
}

import { getTableColumns, sql } from "drizzle-orm";
import { bigint, customType, index, integer, jsonb, numeric, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { Environment } from "./api-keys.js";
import { businesses } from "./businesses.js";
import { at, createdAt, folioColumn, idColumn, updatedAt } from "./columns.js";
import type { EnvelopeLayout } from "./envelope-layout.js";
import { numerations } from "./numerations.js";

/** Raw bytes (signed XML is ISO-8859-1 and must be kept byte for byte). */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => new Uint8Array(value),
});

export type DocumentState = "PENDIENTE" | "ENVIADO" | "ACEPTADO" | "ACEPTADO_CON_REPAROS" | "RECHAZADO";

/** What the SII said last about the document (API.md §6.3 `/status`). */
export interface SiiStatusSnapshot {
  estado_envio: string | null;
  glosa: string | null;
  aceptados: number | null;
  rechazados: number | null;
  reparos: number | null;
  errores: Array<{ codigo: string; descripcion: string; ayuda: string }>;
  consultado_at: string | null;
}

/**
 * What the SII's registry of acceptances and claims (Ley 19.983; BRIEF's "registro de reclamos") says about a
 * factura (33/34): the receiver's events and the 8-day window from the SII's reception (`modules/dte/acceptance`).
 */
export interface AcceptanceSnapshot {
  estado: "SIN_RESPUESTA" | "ACEPTADO" | "RECLAMADO" | "ACEPTADO_TACITO";
  eventos: Array<{ codigo: string; descripcion: string; rut_responsable: string | null; fecha: string | null }>;
  /** UTC ISO of the SII's reception (consultarFechaRecepcionSii), when known. */
  recibido_sii_at: string | null;
  consultado_at: string;
}

export const documents = pgTable(
  "documents",
  {
    id: idColumn(),
    businessId: text("business_id").notNull().references(() => businesses.id),
    environment: text("environment").$type<Environment>().notNull(),
    numerationId: text("numeration_id").notNull().references(() => numerations.id),
    tipo: integer("tipo").notNull(),
    folio: folioColumn("folio").notNull(),
    /** Tax date `YYYY-MM-DD` (FchEmis). */
    fecha: text("fecha").notNull(),
    /** UTC timestamp of the emission. */
    fechaEmision: at("fecha_emision").notNull(),
    receptorRut: text("receptor_rut").notNull(),
    receptorRazonSocial: text("receptor_razon_social"),
    montoNeto: bigint("monto_neto", { mode: "number" }).notNull(),
    montoExento: bigint("monto_exento", { mode: "number" }).notNull(),
    montoIva: bigint("monto_iva", { mode: "number" }).notNull(),
    montoTotal: bigint("monto_total", { mode: "number" }).notNull(),
    /**
     * An export's (110–112) own currency (`TpoMoneda`), exchange rate (`TpoCambio`, pesos per unit) and total in that
     * currency (`MntTotal`, the TED's `MNT`, what the SII compares in a status query); null for other tipos, whose
     * `monto_total` is the document's. An export's `monto_exento`/`monto_total` are its pesos (`OtraMoneda`).
     */
    moneda: text("moneda"),
    tipoCambio: numeric("tipo_cambio", { precision: 10, scale: 4 }),
    montoTotalMoneda: numeric("monto_total_moneda", { precision: 22, scale: 4 }),
    estado: text("estado").$type<DocumentState>().notNull(),
    trackId: text("track_id"),
    envelopeId: text("envelope_id"),
    /** The normalised emission request (API field names), for detail views, PDF and annulment. */
    request: jsonb("request").$type<Record<string, unknown>>().notNull(),
    /** Computed line amounts etc. */
    computed: jsonb("computed").$type<Record<string, unknown>>().notNull(),
    /** The exact signed DTE bytes (ISO-8859-1). Never regenerated. */
    xml: bytea("xml").notNull(),
    /** The `<TED>` text printed as PDF417. */
    ted: text("ted").notNull(),
    sii: jsonb("sii").$type<SiiStatusSnapshot>(),
    /** Dispatcher/poller bookkeeping. */
    nextCheckAt: at("next_check_at"),
    checkAttempts: integer("check_attempts").notNull().default(0),
    annulsDocumentId: text("annuls_document_id"),
    /** The receiver's acceptance or claim (33/34/43 once accepted); null until first asked. */
    acceptance: jsonb("acceptance").$type<AcceptanceSnapshot>(),
    /** When the acceptance worker asks the SII's registry next; null when nothing more can change. */
    acceptanceCheckAt: at("acceptance_check_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("documents_folio_idx").on(t.businessId, t.environment, t.tipo, t.folio),
    index("documents_list_idx").on(t.businessId, t.environment, t.fecha, t.id),
    // GET /v1/dte is newest first (scanned backwards): without these a page sorts every row of the business
    // (bench/RESULTS.md, 1,000,000 documents: unfiltered p99 362 → 43 ms).
    index("documents_newest_idx").on(t.businessId, t.environment, t.createdAt, t.id),
    index("documents_estado_idx").on(t.businessId, t.environment, t.estado, t.createdAt),
    index("documents_receptor_idx").on(t.businessId, t.environment, t.receptorRut),
    index("documents_list_folio_idx").on(t.businessId, t.environment, t.folio),
    index("documents_tipo_idx").on(t.businessId, t.environment, t.tipo, t.fecha),
    index("documents_work_idx").on(t.estado, t.nextCheckAt),
    index("documents_acceptance_idx").on(t.acceptanceCheckAt).where(sql`${t.acceptanceCheckAt} is not null`),
    // GET /v1/dte?aceptacion=RECLAMADO: the claimed facturas of a business, newest first.
    index("documents_acceptance_estado_idx")
      .on(t.businessId, t.environment, sql`(${t.acceptance}->>'estado')`, t.createdAt)
      .where(sql`${t.acceptance} is not null`),
    // One live annulment per document, even when two requests race (a rejected note frees the document again).
    uniqueIndex("documents_annuls_idx")
      .on(t.annulsDocumentId)
      .where(sql`${t.annulsDocumentId} is not null and ${t.estado} <> 'RECHAZADO'`),
  ],
);

export type DocumentRow = typeof documents.$inferSelect;

/**
 * The total the SII compares in a status query (QueryEstDte `MontoDte`): the document's own `MntTotal`, an export's
 * in its currency (`monto_total_moneda`), not the pesos its `monto_total` keeps.
 */
export function siiComparedTotal(doc: Pick<DocumentRow, "montoTotal" | "montoTotalMoneda">): number {
  return doc.montoTotalMoneda === null ? doc.montoTotal : Number(doc.montoTotalMoneda);
}

/**
 * A document without its payload (signed XML, TED, request, computed: about 8 KB, all four kept out of line by
 * migration 0011, so a state change rewrites a row of about 0.4 KB): what state changes, polls and reconciliation read. Reading or returning the payload makes PostgreSQL
 * decompress and hex-encode it and the driver decode and copy it, for nothing.
 */
export type DocumentHead = Omit<DocumentRow, "xml" | "ted" | "request" | "computed">;

const { xml: _xml, ted: _ted, request: _request, computed: _computed, ...headColumns } = getTableColumns(documents);
/** `select(documentHeadColumns)` / `returning(documentHeadColumns)` → `DocumentHead`. */
export const documentHeadColumns = headColumns;

export const documentHistory = pgTable(
  "document_history",
  {
    id: idColumn(),
    documentId: text("document_id").notNull().references(() => documents.id),
    estado: text("estado").$type<DocumentState>().notNull(),
    at: at("at").notNull(),
    detalle: text("detalle"),
  },
  (t) => [index("document_history_doc_idx").on(t.documentId, t.at)],
);

/** Envelopes uploaded to the SII (exact bytes kept). */
export const envelopes = pgTable(
  "envelopes",
  {
    id: idColumn(),
    businessId: text("business_id").notNull().references(() => businesses.id),
    environment: text("environment").$type<Environment>().notNull(),
    kind: text("kind").$type<"EnvioDTE" | "EnvioBOLETA">().notNull(),
    /** The envelope's bytes — or, when `layout` is set, its skeleton: those bytes without its documents' (`db/envelope-layout.ts`). */
    xml: bytea("xml").notNull(),
    /** Where each document's stored bytes go back into the skeleton; null when `xml` is the whole envelope. */
    layout: jsonb("layout").$type<EnvelopeLayout>(),
    trackId: text("track_id"),
    /** building | uploading | uploaded | refused | unknown */
    status: text("status").notNull(),
    detail: text("detail"),
    createdAt: createdAt(),
    uploadedAt: at("uploaded_at"),
    updatedAt: updatedAt(),
    /**
     * The status poller's claim on the envelope's due documents (`jobs/claim-documents.ts`): one row written per
     * envelope and poll, not a lease per document. Null when no poller holds it.
     */
    pollLeaseUntil: at("poll_lease_until"),
  },
  (t) => [index("envelopes_business_idx").on(t.businessId, t.environment)],
);

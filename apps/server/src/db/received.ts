/**
 * Intercambio (API.md §11–§12): documents suppliers sent the business, messages that could not be imported, the
 * business's answer numbering, and the outbox of mails Timbre sends for the business (acuses, answers, deliveries).
 */
import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { Environment } from "./api-keys.js";
import { businesses } from "./businesses.js";
import { at, createdAt, folioColumn, idColumn, updatedAt } from "./columns.js";
import { bytea } from "./documents.js";

export type ReceivedState = "SIN_RESPUESTA" | "ACEPTADO" | "RECLAMADO" | "ACEPTADO_TACITO" | "NO_APLICA";

/** One event of a received document: Timbre's own decisions and what the SII's registry lists. */
export interface ReceivedEvent {
  codigo: string;
  descripcion: string;
  rut_responsable: string | null;
  fecha: string | null;
  origen: "timbre" | "sii";
}

export const receivedDocuments = pgTable(
  "received_documents",
  {
    id: idColumn(),
    businessId: text("business_id").notNull().references(() => businesses.id),
    environment: text("environment").$type<Environment>().notNull(),
    emisorRut: text("emisor_rut").notNull(),
    emisorRazonSocial: text("emisor_razon_social").notNull(),
    emisorGiro: text("emisor_giro"),
    tipo: integer("tipo").notNull(),
    folio: folioColumn("folio").notNull(),
    fecha: text("fecha").notNull(),
    montoNeto: bigint("monto_neto", { mode: "number" }).notNull(),
    montoExento: bigint("monto_exento", { mode: "number" }).notNull(),
    montoIva: bigint("monto_iva", { mode: "number" }).notNull(),
    montoTotal: bigint("monto_total", { mode: "number" }).notNull(),
    items: jsonb("items").$type<unknown[]>().notNull(),
    referencias: jsonb("referencias").$type<unknown[]>().notNull(),
    /** The `<DTE>…</DTE>` exactly as it stood in the received envelope (its encoding). */
    xml: bytea("xml").notNull(),
    verified: boolean("verified").notNull(),
    verificacion: jsonb("verificacion").$type<Record<string, string>>().notNull(),
    supersededBy: text("superseded_by"),
    estado: text("estado").$type<ReceivedState>().notNull(),
    eventos: jsonb("eventos").$type<ReceivedEvent[]>().notNull(),
    recibidoAt: at("recibido_at").notNull(),
    recibidoSiiAt: at("recibido_sii_at"),
    plazoHasta: at("plazo_hasta"),
    /** The `CodEnvio` the acuse gave the envelope that brought it (a `ResultadoDTE` repeats it). */
    codEnvio: integer("cod_envio").notNull(),
    /** Where answers go when the SII's list has no address for the emisor (the message's Reply-To/From or `reply_to`). */
    replyTo: text("reply_to"),
    /** When the registry should be asked again (reception date, decisions taken elsewhere); null: never. */
    registryCheckAt: at("registry_check_at"),
    /** When `received.deadline_near` was raised (once, 2 days before `plazo_hasta` with no decision). */
    deadlineWarnedAt: at("deadline_warned_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Verified documents are never kept twice; unverified copies are evidence and may repeat.
    uniqueIndex("received_documents_verified_key").on(t.businessId, t.environment, t.emisorRut, t.tipo, t.folio).where(sql`${t.verified}`),
    index("received_documents_list_idx").on(t.businessId, t.environment, t.createdAt),
    index("received_documents_registry_idx").on(t.registryCheckAt).where(sql`${t.registryCheckAt} is not null`),
  ],
);

export type ReceivedDocumentRow = typeof receivedDocuments.$inferSelect;

/** Messages and uploads that could not be imported, kept 30 days with the reason (`GET /received/inbox`). */
export const receivedInbox = pgTable(
  "received_inbox",
  {
    id: idColumn(),
    businessId: text("business_id").notNull().references(() => businesses.id),
    environment: text("environment").$type<Environment>().notNull(),
    source: text("source").$type<"upload" | "smtp" | "imap">().notNull(),
    reason: text("reason").notNull(),
    detail: text("detail").notNull(),
    sender: text("sender"),
    subject: text("subject"),
    filename: text("filename"),
    createdAt: createdAt(),
  },
  (t) => [index("received_inbox_business_idx").on(t.businessId, t.environment, t.createdAt)],
);

/** Per-business sequences of the answers (`IdRespuesta`, `CodEnvio`), each from 1 (API.md §12). */
export const exchangeSequences = pgTable(
  "exchange_sequences",
  {
    businessId: text("business_id").notNull().references(() => businesses.id),
    name: text("name").$type<"id_respuesta" | "cod_envio">().notNull(),
    value: integer("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.name] })],
);

export interface OutboxAttachment {
  filename: string;
  contentType: string;
  /** base64 of the exact bytes. */
  content: string;
}

/**
 * Mails Timbre sends for a business (acuses, commercial answers, receipts, deliveries): durable rows sent by the
 * mail worker through `SMTP_URL`, retried like webhooks; a 5xx answer is final.
 */
export const exchangeOutbox = pgTable(
  "exchange_outbox",
  {
    id: idColumn(),
    businessId: text("business_id").notNull().references(() => businesses.id),
    environment: text("environment").$type<Environment>().notNull(),
    kind: text("kind").$type<"acuse" | "resultado" | "recibos" | "entrega">().notNull(),
    /** The received document or issued document the mail is about. */
    subjectId: text("subject_id"),
    recipients: jsonb("recipients").$type<string[]>().notNull(),
    replyTo: text("reply_to"),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    attachments: jsonb("attachments").$type<OutboxAttachment[]>().notNull(),
    state: text("state").$type<"pending" | "sent" | "retrying" | "failed" | "skipped">().notNull(),
    attempts: integer("attempts").notNull().default(0),
    dueAt: at("due_at"),
    sentAt: at("sent_at"),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [
    index("exchange_outbox_due_idx").on(t.dueAt).where(sql`${t.dueAt} is not null`),
    index("exchange_outbox_subject_idx").on(t.subjectId),
  ],
);

export type OutboxRow = typeof exchangeOutbox.$inferSelect;

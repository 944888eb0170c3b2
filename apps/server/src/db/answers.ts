/**
 * What arrives by mail about the business's own documents (API.md §11–§12): the receivers' XML answers
 * (`intercambio.respuestas` of `GET /dte/{id}`) and the per-document codes of the SII's result mails
 * (`sii.errores` of `GET /dte/{id}/status`). Kept apart from `documents.sii`, which the SII's web services own:
 * neither changes a document's state.
 */
import { index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { businesses } from "./businesses.js";
import { at, createdAt } from "./columns.js";
import { documents } from "./documents.js";

/** One receiver's answer about one document; the same answer arriving twice (two doors, a resent mail) is kept once. */
export const documentAnswers = pgTable(
  "document_answers",
  {
    documentId: text("document_id").notNull().references(() => documents.id),
    /** SHA-256 of the answer kind, code, glosa and the signed message's digest: the answer's identity. */
    fingerprint: text("fingerprint").notNull(),
    businessId: text("business_id").notNull().references(() => businesses.id),
    kind: text("kind").$type<"recepcion" | "resultado" | "recibo">().notNull(),
    codigo: integer("codigo").notNull(),
    glosa: text("glosa").notNull(),
    /** When it arrived. */
    receivedAt: at("received_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.fingerprint] }), index("document_answers_business_idx").on(t.businessId)],
);

export type DocumentAnswerRow = typeof documentAnswers.$inferSelect;

/** The codes one SII result mail (`RESULTADO_ENVIO`, one TRACKID) gave one document; a later mail for the same envelope replaces them. */
export const documentSiiMails = pgTable(
  "document_sii_mails",
  {
    documentId: text("document_id").notNull().references(() => documents.id),
    trackId: text("track_id").notNull(),
    businessId: text("business_id").notNull().references(() => businesses.id),
    errores: jsonb("errores").$type<Array<{ codigo: string; descripcion: string; ayuda: string }>>().notNull(),
    receivedAt: at("received_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.trackId] }), index("document_sii_mails_business_idx").on(t.businessId)],
);

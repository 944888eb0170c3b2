import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { Environment } from "./api-keys.js";
import { businesses } from "./businesses.js";
import { at, createdAt, folioColumn, idColumn } from "./columns.js";

/**
 * Folio ranges (CAF). `siguiente` is the next folio to hand out; allocation is one row update under a row lock
 * (`UPDATE … SET siguiente = siguiente + 1 … RETURNING`), so it is safe across server processes.
 */
export const numerations = pgTable(
  "numerations",
  {
    id: idColumn(),
    businessId: text("business_id").notNull().references(() => businesses.id),
    environment: text("environment").$type<Environment>().notNull(),
    tipo: integer("tipo").notNull(),
    desde: folioColumn("desde").notNull(),
    hasta: folioColumn("hasta").notNull(),
    siguiente: folioColumn("siguiente").notNull(),
    fechaAutorizacion: text("fecha_autorizacion").notNull(),
    /** `YYYY-MM-DD` from which the CAF no longer serves (null: does not expire). */
    venceEl: text("vence_el"),
    idk: integer("idk").notNull(),
    /** The CAF XML without its private key (`RSASK`): public part, kept for the TED and audits. */
    cafXml: text("caf_xml").notNull(),
    /** The whole CAF file, AES-256-GCM sealed (it holds the CAF private key). */
    cafFileEnc: text("caf_file_enc").notNull(),
    createdAt: createdAt(),
    exhaustedAt: at("exhausted_at"),
  },
  (t) => [
    index("numerations_pick_idx").on(t.businessId, t.environment, t.tipo, t.fechaAutorizacion, t.desde),
    uniqueIndex("numerations_range_idx").on(t.businessId, t.environment, t.tipo, t.desde),
  ],
);

export type NumerationRow = typeof numerations.$inferSelect;

/** Folios handed out but never turned into a stored document (to be annulled at the SII). */
export const unusedFolios = pgTable(
  "unused_folios",
  {
    numerationId: text("numeration_id").notNull().references(() => numerations.id),
    folio: folioColumn("folio").notNull(),
    reason: text("reason").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("unused_folios_idx").on(t.numerationId, t.folio)],
);

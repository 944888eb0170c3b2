import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, idColumn, updatedAt } from "./columns.js";
import { users } from "./users.js";

/** Public summary of the uploaded certificate (API.md §6.2). */
export interface CertificateSummary {
  rut_titular: string | null;
  nombre_titular: string;
  emisor: string;
  serial: string;
  valid_from: string;
  valid_to: string;
  fingerprint_sha256: string;
}

export const businesses = pgTable(
  "businesses",
  {
    id: idColumn(),
    userId: text("user_id").notNull().references(() => users.id),
    rut: text("rut").notNull(),
    razonSocial: text("razon_social").notNull(),
    giro: text("giro").notNull(),
    acteco: jsonb("acteco").$type<number[]>().notNull(),
    direccion: text("direccion").notNull(),
    comuna: text("comuna").notNull(),
    ciudad: text("ciudad"),
    email: text("email"),
    telefono: text("telefono"),
    /** The SII's code of the branch (`CdgSIISucur`), digits. */
    sucursalSii: text("sucursal_sii"),
    /** The SII unit of the issuer's jurisdiction, printed under the PDF's box ("S.I.I. - SANTIAGO ORIENTE"). */
    unidadSii: text("unidad_sii"),
    resolucionNumero: integer("resolucion_numero"),
    resolucionFecha: text("resolucion_fecha"),
    webhookUrl: text("webhook_url"),
    /** AES-256-GCM sealed (secrets.ts). */
    webhookSecretEnc: text("webhook_secret_enc"),
    webhookSecretPrevEnc: text("webhook_secret_prev_enc"),
    webhookSecretPrevExpiresAt: at("webhook_secret_prev_expires_at"),
    certificate: jsonb("certificate").$type<CertificateSummary>(),
    certificatePem: text("certificate_pem"),
    /** PKCS#8 PEM of the signing key, sealed. */
    certificateKeyEnc: text("certificate_key_enc"),
    /** Local part of the business's intercambio address `<token>@INBOUND_DOMAIN` (128 random bits, hex); set on first use. */
    intercambioToken: text("intercambio_token"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: at("deleted_at"),
  },
  (t) => [
    index("businesses_user_idx").on(t.userId),
    uniqueIndex("businesses_user_rut_live_idx").on(t.userId, t.rut).where(sql`${t.deletedAt} is null`),
    uniqueIndex("businesses_intercambio_token_idx").on(t.intercambioToken),
  ],
);

export type BusinessRow = typeof businesses.$inferSelect;

import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
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

/** Why the last poll of a business's mailbox failed (API.md §12 door 3). */
export type ImapError = "auth" | "tls" | "unreachable" | "mailbox";

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
    /** API.md §12 door 3: the business's own mailbox, `imap(s)://user:password@host:port/mailbox`, sealed. */
    imapUrlEnc: text("imap_url_enc"),
    /** What the business object shows of the mailbox (never the password). */
    imapHost: text("imap_host"),
    imapUser: text("imap_user"),
    /** Poll progress: messages up to `imap_last_uid` of the mailbox with this UIDVALIDITY were fed to the import. */
    imapUidValidity: bigint("imap_uid_validity", { mode: "number" }),
    imapLastUid: bigint("imap_last_uid", { mode: "number" }),
    /** When the poller takes the mailbox next; a claim moves it forward by a lease (`jobs/poll-mailboxes.ts`). */
    imapNextCheckAt: at("imap_next_check_at"),
    imapCheckedAt: at("imap_checked_at"),
    /** The last poll's failure: `auth`, `tls`, `unreachable`, `mailbox`; null when it went through. */
    imapError: text("imap_error").$type<ImapError>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: at("deleted_at"),
  },
  (t) => [
    index("businesses_user_idx").on(t.userId),
    uniqueIndex("businesses_user_rut_live_idx").on(t.userId, t.rut).where(sql`${t.deletedAt} is null`),
    uniqueIndex("businesses_intercambio_token_idx").on(t.intercambioToken),
    index("businesses_imap_due_idx").on(t.imapNextCheckAt).where(sql`${t.imapUrlEnc} is not null and ${t.deletedAt} is null`),
  ],
);

export type BusinessRow = typeof businesses.$inferSelect;

import type { BusinessRow, CertificateSummary, ImapError } from "../../db/businesses.js";

/** What a business shows of its own mailbox: never the URL or the password. */
export interface MailboxView {
  host: string;
  user: string;
  ultimo_chequeo_at: string | null;
  error: ImapError | null;
}

export interface BusinessView {
  id: string;
  rut: string;
  razon_social: string;
  giro: string;
  acteco: number[];
  direccion: string;
  comuna: string;
  ciudad: string | null;
  email: string | null;
  telefono: string | null;
  sucursal_sii: string | null;
  unidad_sii: string | null;
  resolucion: { numero: number; fecha: string } | null;
  webhook_url: string | null;
  certificate: CertificateSummary | null;
  /** API.md §12 door 2, §14: where suppliers and the SII mail the business; door 3: its own mailbox, polled. */
  intercambio: { email: string | null; imap: MailboxView | null };
  created_at: string;
  updated_at: string;
  /** Only in the response that creates the secret. */
  webhook_secret?: string;
}

/**
 * `intercambio.email`: `<token>@<INBOUND_DOMAIN>` (the domain defaults to `intercambio.timbre.localhost`, the one the
 * sandbox and local setups use), the address the business registers at the SII as its *correo de intercambio*. It is
 * null only for a row without a token (migration 0014 gave every business one; new businesses get it at creation).
 */
export function intercambioEmailOf(row: Pick<BusinessRow, "intercambioToken">, inboundDomain: string): string | null {
  return row.intercambioToken ? `${row.intercambioToken}@${inboundDomain}` : null;
}

function mailboxOf(row: BusinessRow): MailboxView | null {
  if (row.imapUrlEnc === null || row.imapHost === null || row.imapUser === null) return null;
  return { host: row.imapHost, user: row.imapUser, ultimo_chequeo_at: row.imapCheckedAt?.toISOString() ?? null, error: row.imapError };
}

/** The public business object: never a private key, password or webhook secret (API.md §6.2). */
export function presentBusiness(row: BusinessRow, inboundDomain: string): BusinessView {
  return {
    id: row.id,
    rut: row.rut,
    razon_social: row.razonSocial,
    giro: row.giro,
    acteco: row.acteco,
    direccion: row.direccion,
    comuna: row.comuna,
    ciudad: row.ciudad,
    email: row.email,
    telefono: row.telefono,
    sucursal_sii: row.sucursalSii,
    unidad_sii: row.unidadSii,
    resolucion: row.resolucionNumero !== null && row.resolucionFecha !== null ? { numero: row.resolucionNumero, fecha: row.resolucionFecha } : null,
    webhook_url: row.webhookUrl,
    certificate: row.certificate,
    intercambio: { email: intercambioEmailOf(row, inboundDomain), imap: mailboxOf(row) },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

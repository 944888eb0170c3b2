import type { BusinessRow, CertificateSummary } from "../../db/businesses.js";

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
  created_at: string;
  updated_at: string;
  /** Only in the response that creates the secret. */
  webhook_secret?: string;
}

/** The public business object: never a private key, password or webhook secret (API.md §6.2). */
export function presentBusiness(row: BusinessRow): BusinessView {
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
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

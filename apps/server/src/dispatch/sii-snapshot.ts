/** The `sii` object of `/status` (API.md §6.3): what the SII said last, with hints for every code. */
import { describeSiiCode, type EnvelopeStatus, type SiiCodeContext } from "@timbre/sii";
import type { SiiStatusSnapshot } from "../db/documents.js";

export type SiiError = SiiStatusSnapshot["errores"][number];

/** One error line with the dictionary's description and hint (the SII's own text wins when given). */
export function siiError(codigo: string, context?: SiiCodeContext, descripcion?: string): SiiError {
  const info = describeSiiCode(codigo, context);
  return { codigo: info.codigo, descripcion: descripcion && descripcion.trim() !== "" ? descripcion : info.descripcion, ayuda: info.ayuda };
}

/** Snapshot from an envelope status (counts of the document's tipo when given). */
export function snapshotFromEnvelope(status: EnvelopeStatus, tipo: number, errores: SiiError[], at: Date): SiiStatusSnapshot {
  const counts = status.counts.find((c) => c.tipo === tipo) ?? (status.counts.length === 1 ? status.counts[0] : undefined);
  return {
    estado_envio: status.estado,
    glosa: status.glosa,
    aceptados: counts?.aceptados ?? null,
    rechazados: counts?.rechazados ?? null,
    reparos: counts?.reparos ?? null,
    errores,
    consultado_at: at.toISOString(),
  };
}

/** Snapshot with only an estado/glosa (upload refusals, QueryEstDte answers). */
export function simpleSnapshot(estado: string | null, glosa: string | null, errores: SiiError[], at: Date): SiiStatusSnapshot {
  return { estado_envio: estado, glosa, aceptados: null, rechazados: null, reparos: null, errores, consultado_at: at.toISOString() };
}

import { DOCUMENT_CODES, normalizeDocumentCode } from "./document-codes.js";
import { DOCUMENT_STATES } from "./document-states.js";
import { ENVELOPE_STATES } from "./envelope-states.js";
import { RECEIVER_REGISTRY_CODES } from "./receiver-registry.js";
import type { SiiCodeInfo } from "./types.js";
import { TOKEN_STATES } from "./token-states.js";
import { UPLOAD_STATUS } from "./upload-status.js";

/**
 * Where to look a code up; without it, document codes then envelope states then document states then upload STATUS
 * (`receiver`, the registry of acceptances and claims' `codResp`, only when asked: its numbers overlap).
 */
export type SiiCodeContext = "document" | "envelope" | "estdte" | "upload" | "token" | "receiver";

/**
 * The SII's text and a Spanish hint for a code (a rejection/remark code, a QueryEstUp or QueryEstDte state, or an
 * upload STATUS). Unknown codes get a generic hint instead of failing.
 *
 * @example
 * describeSiiCode("CAF-3-517").descripcion; // "CAF vencido"
 * describeSiiCode("7", "upload").descripcion; // "Esquema inválido"
 * describeSiiCode(18, "receiver").descripcion; // "Documento no ha sido recibido."
 */
export function describeSiiCode(code: string | number, context?: SiiCodeContext): SiiCodeInfo {
  const raw = String(code).trim();
  const tables = {
    document: () => DOCUMENT_CODES[normalizeDocumentCode(raw)],
    envelope: () => ENVELOPE_STATES[raw],
    estdte: () => DOCUMENT_STATES[raw],
    upload: () => UPLOAD_STATUS[raw.replace(/^0+(?=\d)/, "")],
    token: () => TOKEN_STATES[raw],
    receiver: () => RECEIVER_REGISTRY_CODES[raw],
  } as const;
  const order: SiiCodeContext[] = context ? [context] : ["document", "envelope", "estdte", "upload"];
  for (const name of order) {
    const found = tables[name]();
    if (found) return { codigo: raw, descripcion: found.descripcion, ayuda: found.ayuda };
  }
  return {
    codigo: raw,
    descripcion: "Código del SII no catalogado",
    ayuda: "Revise el detalle entregado por el SII; si el envío sigue en proceso, vuelva a consultar más tarde.",
  };
}

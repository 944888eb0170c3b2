/**
 * QueryEstUp (envelope status, BRIEF §7.3/§8) mapped to a document state. `EPR` alone is not acceptance: the
 * counts decide, and mixed counts on a multi-document envelope must be resolved per document (QueryEstDte or the
 * SII's detail).
 */

/** Counts of one document type (`RESP_BODY`). */
export interface EnvelopeCounts {
  tipo?: number;
  informados?: number;
  aceptados?: number;
  rechazados?: number;
  reparos?: number;
}

/** The parsed QueryEstUp answer. Counts either top-level (already for the document's type) or in `porTipo`. */
export interface EnvelopeStatusInput extends EnvelopeCounts {
  estado: string;
  /** `ERR_CODE`, meaningful with `estado` `-11`. */
  errCode?: number | string;
  porTipo?: EnvelopeCounts[];
}

export type EnvelopeVerdict =
  | { kind: "processing"; state: "ENVIADO"; estado: string; reauthenticate: boolean }
  | { kind: "final"; state: "ACEPTADO" | "ACEPTADO_CON_REPAROS" | "RECHAZADO"; estado: string; envelopeLevel: boolean; hint?: string }
  | { kind: "unresolved"; state: "ENVIADO"; estado: string; reason: "mixed_counts" | "no_counts" }
  | { kind: "unknown"; state: "ENVIADO"; estado: string; alert: true; reason: string };

const PROCESSING = new Set(["REC", "SOK", "CRT", "FOK", "PDR", "PRD"]);
const TOKEN = new Set(["001", "002", "003"]);
/** Rejections of the whole envelope: nothing was registered, the same folios may be re-sent after a fix. */
const ENVELOPE_REJECTED = new Set(["RSC", "RFR", "RCT", "VOF"]);
const REJECTED = new Set(["RCH", "RCO"]);
const WITH_REMARKS = new Set(["RPR", "RLV"]);

function countsFor(input: EnvelopeStatusInput, forDocument?: { tipo: number }): EnvelopeCounts | null {
  if (forDocument && input.porTipo) return input.porTipo.find((c) => c.tipo === forDocument.tipo) ?? null;
  if (input.porTipo && input.porTipo.length === 1) return input.porTipo[0] ?? null;
  if (input.porTipo && input.porTipo.length > 1) {
    const sum = (k: keyof Omit<EnvelopeCounts, "tipo">) => input.porTipo?.reduce((n, c) => n + (c[k] ?? 0), 0) ?? 0;
    return { informados: sum("informados"), aceptados: sum("aceptados"), rechazados: sum("rechazados"), reparos: sum("reparos") };
  }
  const hasAny = [input.informados, input.aceptados, input.rechazados, input.reparos].some((v) => v !== undefined);
  return hasAny ? input : null;
}

function fromCounts(estado: string, c: EnvelopeCounts): EnvelopeVerdict {
  const aceptados = c.aceptados ?? 0;
  const rechazados = c.rechazados ?? 0;
  const reparos = c.reparos ?? 0;
  const n = c.informados ?? aceptados + rechazados;
  const mixed: EnvelopeVerdict = { kind: "unresolved", state: "ENVIADO", estado, reason: "mixed_counts" };
  if (n <= 0) return { kind: "unresolved", state: "ENVIADO", estado, reason: "no_counts" };
  if (rechazados > 0) return rechazados >= n ? { kind: "final", state: "RECHAZADO", estado, envelopeLevel: false } : mixed;
  if (reparos > 0) return reparos >= n ? { kind: "final", state: "ACEPTADO_CON_REPAROS", estado, envelopeLevel: false } : mixed;
  if (aceptados >= n) return { kind: "final", state: "ACEPTADO", estado, envelopeLevel: false };
  return mixed;
}

/**
 * Maps an envelope status to the state of the documents it carries (or of the one of `forDocument.tipo`).
 * REC/SOK/CRT/FOK/PDR/PRD, `-11` with ERR_CODE 0/2, other negative codes and token errors 001–003 → still
 * ENVIADO (`processing`); EPR → counts: all accepted → ACEPTADO, all with reparos → ACEPTADO_CON_REPAROS, all
 * rejected → RECHAZADO, otherwise `unresolved` (ask QueryEstDte per document); RPR/RLV → ACEPTADO_CON_REPAROS;
 * RSC/RFR/RCT/VOF (envelope-level, `envelopeLevel: true`) and RCH/RCO → RECHAZADO; RPT (the same file uploaded
 * again: nothing of it is registered, its documents stand as the first upload left them) → RECHAZADO, envelope-level,
 * with a hint to confirm each document with QueryEstDte; anything else → still ENVIADO with `alert`.
 *
 * @example
 * stateFromEnvelopeStatus({ estado: "EPR", informados: 1, aceptados: 1, rechazados: 0, reparos: 0 }).state // "ACEPTADO"
 * stateFromEnvelopeStatus({ estado: "-11", errCode: 2 }).kind // "processing"
 */
export function stateFromEnvelopeStatus(input: EnvelopeStatusInput, forDocument?: { tipo: number }): EnvelopeVerdict {
  const estado = input.estado.trim().toUpperCase();
  if (PROCESSING.has(estado)) return { kind: "processing", state: "ENVIADO", estado, reauthenticate: false };
  if (TOKEN.has(estado)) return { kind: "processing", state: "ENVIADO", estado, reauthenticate: true };
  if (estado === "-11") {
    const err = String(input.errCode ?? "").trim();
    if (err === "2" || err === "0") return { kind: "processing", state: "ENVIADO", estado, reauthenticate: false };
    return { kind: "unknown", state: "ENVIADO", estado, alert: true, reason: err === "1" ? "envelope does not belong to this company" : `-11 with ERR_CODE ${err || "absent"}` };
  }
  if (/^-\d{1,2}$/.test(estado)) return { kind: "processing", state: "ENVIADO", estado, reauthenticate: false };
  if (estado === "EPR") {
    const counts = countsFor(input, forDocument);
    return counts ? fromCounts(estado, counts) : { kind: "unresolved", state: "ENVIADO", estado, reason: "no_counts" };
  }
  if (WITH_REMARKS.has(estado)) return { kind: "final", state: "ACEPTADO_CON_REPAROS", estado, envelopeLevel: false };
  if (ENVELOPE_REJECTED.has(estado)) {
    return { kind: "final", state: "RECHAZADO", estado, envelopeLevel: true, hint: "nothing registered: fix and re-send the same folios" };
  }
  if (estado === "RPT") {
    return { kind: "final", state: "RECHAZADO", estado, envelopeLevel: true, hint: "repeated envelope: the first upload's verdict stands — confirm with QueryEstDte" };
  }
  if (REJECTED.has(estado)) return { kind: "final", state: "RECHAZADO", estado, envelopeLevel: false };
  return { kind: "unknown", state: "ENVIADO", estado, alert: true, reason: `unknown envelope status ${estado}` };
}

/**
 * QueryEstDte (`getEstDte`, BRIEF §7.4/§8): what the SII knows about one document.
 *
 * - `received` (DOK; TMD/TMC/MMD/MMC modified by a note; AND/ANC annulled by a note) → ACEPTADO, with
 *   `modifiedByNote`/`cancelledByNote` flags (our public states have no "cancelled": it is informational).
 * - `not_received` (FAU): unknown to the SII (or its envelope is still processing) — state `null`: keep polling
 *   while ENVIADO; a PENDIENTE document whose upload outcome was unknown may be re-sent with the same folio.
 * - `refused` (FNA folio not authorised, FAN folio annulled) → RECHAZADO.
 * - `mismatch` (DNK: a document with this folio exists with other data), `error` (EMP, -1…-4, 001–003),
 *   `unknown` codes → state `null`, never a verdict.
 */
export type DocumentVerdict =
  | { kind: "received"; state: "ACEPTADO"; estado: string; modifiedByNote: boolean; cancelledByNote: boolean }
  | { kind: "not_received"; state: null; estado: string }
  | { kind: "refused"; state: "RECHAZADO"; estado: string; reason: string }
  | { kind: "mismatch"; state: null; estado: string; alert: true }
  | { kind: "error"; state: null; estado: string; retry: boolean; reauthenticate: boolean; reason: string }
  | { kind: "unknown"; state: null; estado: string; alert: true };

/**
 * Maps a QueryEstDte `ESTADO`.
 *
 * @example
 * stateFromDocumentStatus("DOK")  // { kind: "received", state: "ACEPTADO", … }
 * stateFromDocumentStatus("FAU")  // { kind: "not_received", state: null, estado: "FAU" }
 */
export function stateFromDocumentStatus(estadoRaw: string): DocumentVerdict {
  const estado = estadoRaw.trim().toUpperCase();
  switch (estado) {
    case "DOK":
      return { kind: "received", state: "ACEPTADO", estado, modifiedByNote: false, cancelledByNote: false };
    case "TMD":
    case "TMC":
    case "MMD":
    case "MMC":
      return { kind: "received", state: "ACEPTADO", estado, modifiedByNote: true, cancelledByNote: false };
    case "AND":
    case "ANC":
      return { kind: "received", state: "ACEPTADO", estado, modifiedByNote: true, cancelledByNote: true };
    case "FAU":
      return { kind: "not_received", state: null, estado };
    case "FNA":
      return { kind: "refused", state: "RECHAZADO", estado, reason: "folio not authorised" };
    case "FAN":
      return { kind: "refused", state: "RECHAZADO", estado, reason: "folio annulled" };
    case "DNK":
      return { kind: "mismatch", state: null, estado, alert: true };
    case "EMP":
      return { kind: "error", state: null, estado, retry: false, reauthenticate: false, reason: "company not authorised" };
    case "001":
    case "002":
    case "003":
      return { kind: "error", state: null, estado, retry: true, reauthenticate: true, reason: "token inactive or unknown" };
    default:
      if (/^-\d{1,2}$/.test(estado)) return { kind: "error", state: null, estado, retry: true, reauthenticate: false, reason: `SII internal error ${estado}` };
      return { kind: "unknown", state: null, estado, alert: true };
  }
}

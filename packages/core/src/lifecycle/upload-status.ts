/**
 * `RECEPCIONDTE/STATUS` of an upload (BRIEF §7.2, §8) mapped to what the dispatcher does next.
 *
 * - `sent`: STATUS 0 → the document goes PENDIENTE → ENVIADO.
 * - `refused`: 1, 6, 7, 8 → final for this file (PENDIENTE → RECHAZADO); nothing was registered at the SII.
 * - `retry`: 2, 3, 9, 5 and an HTML answer → stay PENDIENTE, retry later (re-authenticate on 5/HTML).
 * - `unknown`: anything else (e.g. 99, "already received"/internal) → stay PENDIENTE and reconcile with
 *   QueryEstDte before re-sending the same folio.
 */
export type UploadVerdict =
  | { kind: "sent"; state: "ENVIADO"; status: number }
  | { kind: "refused"; state: "RECHAZADO"; status: number; reason: string }
  | { kind: "retry"; state: "PENDIENTE"; status: number | "html"; reauthenticate: boolean; reason: string }
  | { kind: "unknown"; state: "PENDIENTE"; status: number | string; reconcile: true };

const REFUSED: Record<number, string> = {
  1: "sender lacks permission to send for the company",
  6: "company not authorised to issue DTE",
  7: "envelope does not validate against the schema",
  8: "signature error",
};

const RETRY: Record<number, { reason: string; reauthenticate: boolean }> = {
  2: { reason: "file size error", reauthenticate: false },
  3: { reason: "file cut (size mismatch)", reauthenticate: false },
  5: { reason: "not authenticated", reauthenticate: true },
  9: { reason: "SII system blocked", reauthenticate: false },
};

/**
 * Maps an upload answer (`STATUS` as number or text, or `"html"` when the SII answered an HTML page).
 *
 * @example
 * stateFromUploadStatus(0)      // { kind: "sent", state: "ENVIADO", status: 0 }
 * stateFromUploadStatus("7")    // { kind: "refused", state: "RECHAZADO", status: 7, reason: "…schema" }
 * stateFromUploadStatus("html") // { kind: "retry", state: "PENDIENTE", reauthenticate: true, … }
 */
export function stateFromUploadStatus(status: number | string): UploadVerdict {
  if (status === "html") return { kind: "retry", state: "PENDIENTE", status: "html", reauthenticate: true, reason: "HTML answer (session or gateway)" };
  const text = String(status).trim();
  const code = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
  if (code === 0) return { kind: "sent", state: "ENVIADO", status: 0 };
  const refused = REFUSED[code];
  if (refused) return { kind: "refused", state: "RECHAZADO", status: code, reason: refused };
  const retry = RETRY[code];
  if (retry) return { kind: "retry", state: "PENDIENTE", status: code, ...retry };
  return { kind: "unknown", state: "PENDIENTE", status: Number.isNaN(code) ? text : code, reconcile: true };
}

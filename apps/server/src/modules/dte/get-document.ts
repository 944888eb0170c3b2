/** `GET /v1/dte/:id` and `GET /v1/dte/:id/status` (`?refresh=true` asks the SII now). */
import type { Deps } from "../../deps.js";
import { refreshDocumentStatus } from "../../dispatch/refresh-document-status.js";
import type { BusinessScope } from "../../http/auth.js";
import { invalidParameter } from "../../http/errors.js";
import { findDocument } from "./find-document.js";
import { intercambioOf } from "./intercambio-view.js";
import { EMPTY_SII, historyOf, presentDetail } from "./present-document.js";
import { siiMailErrorsOf } from "./record-sii-result.js";

export async function getDocument(deps: Deps, scope: BusinessScope, id: string) {
  const row = await findDocument(deps, scope, id);
  return presentDetail(row, await historyOf(deps.db, row.id), await intercambioOf(deps.db, row));
}

/** `true`/`false`/absent; anything else is 400 INVALID_PARAMETER. */
export function readFlag(query: Record<string, string | undefined>, name: string): boolean {
  const value = query[name];
  if (value === undefined || value === "" || value === "false" || value === "0") return false;
  if (value === "true" || value === "1") return true;
  throw invalidParameter(name, "type", `${name} must be true or false`);
}

export async function getDocumentStatus(deps: Deps, scope: BusinessScope, id: string, refresh: boolean) {
  let row = await findDocument(deps, scope, id);
  if (refresh) row = (await refreshDocumentStatus(deps, row.id)) ?? row;
  const sii = row.sii ?? EMPTY_SII;
  // The SII's result mails add their per-document codes (those the web services' answer did not already give).
  const mailed = (await siiMailErrorsOf(deps.db, row.id)).filter((m) => !sii.errores.some((e) => e.codigo === m.codigo));
  return { id: row.id, estado: row.estado, track_id: row.trackId, sii: mailed.length === 0 ? sii : { ...sii, errores: [...sii.errores, ...mailed] }, historial: await historyOf(deps.db, row.id) };
}

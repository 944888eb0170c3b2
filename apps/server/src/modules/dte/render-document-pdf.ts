/**
 * `GET /v1/dte/:id/pdf`: `?formato=carta|termica`, `?cedible=true` (33/34/43/46/52); rendered once per variant (on a PDF
 * thread) and cached.
 * A cedible copy of a boleta or a note does not exist (only facturas and guías are transferable, Ley 19.983): asking for one
 * is 400 `INVALID_PARAMETER` rather than a normal copy handed out as if it were the cedible one.
 */
import { CEDIBLE_TIPOS } from "@timbre/core";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { invalidParameter } from "../../http/errors.js";
import { findDocument } from "./find-document.js";
import { readFlag } from "./get-document.js";
import { cachedPdf, renderCounts, renderOnce, storePdf } from "./pdf-cache.js";
import { renderOffThread } from "./render-off-thread.js";
import { computationOf } from "./stored-document.js";

export interface RenderedPdf {
  bytes: Uint8Array;
  filename: string;
}

export async function renderDocumentPdf(deps: Deps, scope: BusinessScope, id: string, query: Record<string, string | undefined>): Promise<RenderedPdf> {
  const formato = query.formato ?? "carta";
  if (formato !== "carta" && formato !== "termica") throw invalidParameter("formato", "enum", "formato must be carta or termica");
  const cedibleAsked = readFlag(query, "cedible");
  const row = await findDocument(deps, scope, id);
  const cedible = cedibleAsked && CEDIBLE_TIPOS.includes(row.tipo);
  if (cedibleAsked && !cedible) throw invalidParameter("cedible", "not_allowed", `only facturas (${CEDIBLE_TIPOS.filter((t) => t !== 52).join(", ")}) and guías de despacho (52) have a cedible copy; this is a tipo ${row.tipo}`);
  const filename = `DTE-${row.tipo}-${row.folio}.pdf`;
  const key = `${row.id}|${formato}|${cedible ? "cedible" : "normal"}`;
  const hit = cachedPdf(key);
  if (hit) return { bytes: hit, filename };
  const bytes = await renderOnce(key, async () => {
    const { input, totals, resolution } = computationOf(row);
    const rendered = await renderOffThread(deps, scope, { input, totals, ted: row.ted, resolution }, { formato, cedible });
    renderCounts.set(key, (renderCounts.get(key) ?? 0) + 1);
    storePdf(key, rendered);
    return rendered;
  });
  return { bytes, filename };
}

import { SII_USER_AGENT } from "../protocol/endpoints.js";
import { looksLikeHtml } from "../protocol/xml-text.js";
import type { ClientContext } from "./context.js";
import { SiiTransientError } from "./errors.js";
import { sendHttp } from "./http.js";

/**
 * GET one resource of the boleta REST API with the boleta token and parse its JSON. 404 → `null` (the caller says
 * what "not found" means there); 401 / HTML / other 4xx–5xx / a body that is not JSON throw transient errors
 * (`token` — re-authenticate once —, `html`, `http`, `malformed`).
 *
 * @example
 * const json = await getBoletaJson(ctx, token, `${ctx.hosts.boletaApi}${path}`, "getUploadStatus");
 */
export async function getBoletaJson(ctx: ClientContext, token: string, url: string, op: string): Promise<unknown | null> {
  const answer = await sendHttp(ctx.fetch, { method: "GET", url, headers: { "User-Agent": SII_USER_AGENT, Cookie: `TOKEN=${token}`, Accept: "application/json" } }, ctx.requestMs, op);
  if (answer.status === 401) throw new SiiTransientError(op, "token", "boleta REST: not authenticated (401)", { httpStatus: 401 });
  if (answer.status === 404) return null;
  if (looksLikeHtml(answer.text, answer.contentType)) throw new SiiTransientError(op, "html", "SII answered an HTML page to a boleta REST query", { httpStatus: answer.status });
  if (answer.status >= 400) throw new SiiTransientError(op, "http", `boleta REST: HTTP ${answer.status}`, { httpStatus: answer.status });
  try {
    return JSON.parse(answer.text);
  } catch (cause) {
    throw new SiiTransientError(op, "malformed", "boleta REST answer is not JSON", { cause });
  }
}

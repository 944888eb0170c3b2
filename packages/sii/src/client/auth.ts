import { SII_PATHS, SII_USER_AGENT } from "../protocol/endpoints.js";
import { looksLikeHtml } from "../protocol/xml-text.js";
import type { ClientContext } from "./context.js";
import { SiiAuthError, SiiTransientError } from "./errors.js";
import { sendHttp } from "./http.js";
import { parseSeedAnswer, parseTokenAnswer, type SeedAnswer, type TokenAnswer } from "./parse-auth.js";
import { callSoap } from "./soap-call.js";

/**
 * Token ESTADOs worth retrying: the SII's own failures (03 ParserConfigurationException, 07/09/12 MessageException,
 * 10 "error retorno datos / no puedo crear o act. token", -1/-2) and 08 (seed expired or unknown). The others say
 * our signed seed or certificate was not accepted (authentication manual v1.9, ESTADO tables).
 */
const TRANSIENT_TOKEN_STATES = new Set(["03", "07", "08", "09", "10", "12", "-1", "-2"]);

function seedOrThrow(answer: SeedAnswer, operation: string): string {
  if (answer.estado === "00" && answer.semilla) return answer.semilla;
  throw new SiiTransientError(operation, "estado", `SII did not give a seed (ESTADO ${answer.estado ?? "?"})`, {
    status: answer.estado ?? undefined,
  });
}

function tokenOrThrow(answer: TokenAnswer, operation: string): string {
  if (answer.estado === "00" && answer.token) return answer.token;
  const estado = answer.estado ?? "?";
  if (TRANSIENT_TOKEN_STATES.has(estado)) {
    throw new SiiTransientError(operation, "estado", `SII did not give a token (ESTADO ${estado})`, { status: estado });
  }
  throw new SiiAuthError(operation, estado, answer.glosa ? [answer.glosa] : []);
}

/**
 * CrSeed.getSeed: a fresh seed.
 *
 * @example
 * const seed = await getSeed(ctx); // "168441616904"
 */
export async function getSeed(ctx: ClientContext): Promise<string> {
  return seedOrThrow(parseSeedAnswer(await callSoap(ctx, "CrSeed", {}, "getSeed")), "getSeed");
}

/**
 * GetTokenFromSeed.getToken with the signed seed document: the token.
 *
 * @example
 * const token = await getToken(ctx, ctx.signSeed(seed, ctx.identity));
 */
export async function getToken(ctx: ClientContext, signedSeedXml: string): Promise<string> {
  return tokenOrThrow(parseTokenAnswer(await callSoap(ctx, "GetTokenFromSeed", { pszXml: signedSeedXml }, "getToken")), "getToken");
}

/**
 * Seed → signed seed → token for the SOAP services and DTEUpload.
 *
 * @example
 * const token = await authenticateDte(ctx);
 */
export async function authenticateDte(ctx: ClientContext): Promise<string> {
  const seed = await getSeed(ctx);
  return getToken(ctx, ctx.signSeed(seed, ctx.identity));
}

async function restXml(ctx: ClientContext, operation: string, url: string, body?: string): Promise<string> {
  const bytes = body === undefined ? undefined : new TextEncoder().encode(body);
  const headers: Record<string, string> = { "User-Agent": SII_USER_AGENT, Accept: "application/xml" };
  if (bytes !== undefined) {
    headers["Content-Type"] = "application/xml";
    headers["Content-Length"] = String(bytes.length);
  }
  const answer = await sendHttp(ctx.fetch, { method: bytes ? "POST" : "GET", url, headers, ...(bytes ? { body: bytes } : {}) }, ctx.requestMs, operation);
  if (looksLikeHtml(answer.text, answer.contentType)) {
    throw new SiiTransientError(operation, "html", `SII answered an HTML page to ${operation}`, { httpStatus: answer.status });
  }
  if (answer.status >= 400) {
    throw new SiiTransientError(operation, "http", `SII answered HTTP ${answer.status} to ${operation}`, { httpStatus: answer.status });
  }
  return answer.text;
}

/**
 * The boleta REST API's own seed → token (`boleta.electronica.semilla` / `.token`).
 *
 * @example
 * const token = await authenticateBoleta(ctx);
 */
export async function authenticateBoleta(ctx: ClientContext): Promise<string> {
  const base = ctx.hosts.boletaApi;
  const seed = seedOrThrow(parseSeedAnswer(await restXml(ctx, "getSeed", `${base}${SII_PATHS.boletaSeed}`)), "getSeed");
  const signed = ctx.signSeed(seed, ctx.identity);
  return tokenOrThrow(parseTokenAnswer(await restXml(ctx, "getToken", `${base}${SII_PATHS.boletaToken}`, signed)), "getToken");
}

import { SII_PATHS, SII_USER_AGENT } from "../protocol/endpoints.js";
import { buildMultipart } from "../protocol/multipart.js";
import { looksLikeHtml } from "../protocol/xml-text.js";
import { stateFromUploadStatus } from "@timbre/core/lifecycle";
import type { ClientContext } from "./context.js";
import { SiiRefusedError, SiiTransientError } from "./errors.js";
import { sendHttp, type HttpAnswer } from "./http.js";
import { parseBoletaUpload } from "./parse-boleta.js";
import { parseRecepcionDte } from "./parse-recepcion.js";
import { rutParts } from "./rut-parts.js";

/** What to upload. */
export interface UploadInput {
  kind: "EnvioDTE" | "EnvioBOLETA";
  /** The exact ISO-8859-1 bytes of the signed envelope (archive these; never regenerate them). */
  xml: Uint8Array;
  rutEmisor: string;
  /** The certificate holder (RutEnvia); defaults to the identity's `holderRut`. */
  rutEnvia?: string;
  /** File name sent in the multipart part (default `envio.xml`). */
  filename?: string;
}

/** Which channel carried the upload (poll the status through the same one). */
export type UploadChannel = "dteupload" | "boleta-rest";

/** A successful upload. */
export interface UploadResult {
  /** As the SII wrote it (leading zeros kept). */
  trackId: string;
  channel: UploadChannel;
  /** SII reception timestamp when given. */
  timestamp: string | null;
}

function multipart(input: UploadInput, rutEnvia: string) {
  const sender = rutParts(rutEnvia);
  const company = rutParts(input.rutEmisor);
  return buildMultipart(
    [["rutSender", sender.body], ["dvSender", sender.dv], ["rutCompany", company.body], ["dvCompany", company.dv]],
    { name: "archivo", filename: input.filename ?? "envio.xml", contentType: "text/xml", bytes: input.xml },
  );
}

function headers(token: string, contentType: string, length: number, accept: string, referer: string) {
  return {
    "User-Agent": SII_USER_AGENT,
    Cookie: `TOKEN=${token}`,
    "Content-Type": contentType,
    "Content-Length": String(length),
    Accept: accept,
    "Accept-Language": "es-cl",
    "Cache-Control": "no-cache",
    Referer: referer,
  };
}

function htmlError(operation: string, answer: HttpAnswer): SiiTransientError {
  return new SiiTransientError(operation, "html", "SII answered an HTML page to the upload (not authenticated?)", {
    httpStatus: answer.status,
  });
}

/**
 * POST DTEUpload (multipart, fields in the SII's order, exact envelope bytes). Returns the TRACKID on STATUS 0;
 * STATUS 5 / HTML become transient `token` / `html` errors (re-authenticate once), 1/6/7/8 a
 * {@link SiiRefusedError}, others a transient `status` error.
 *
 * @example
 * const { trackId } = await uploadDte(ctx, token, { kind: "EnvioDTE", xml, rutEmisor: "76192083-9" });
 */
export async function uploadDte(ctx: ClientContext, token: string, input: UploadInput): Promise<UploadResult> {
  const op = "uploadEnvelope";
  const { body, contentType } = multipart(input, input.rutEnvia ?? ctx.identity.holderRut);
  const url = `${ctx.hosts.soap}${SII_PATHS.dteUpload}`;
  const answer = await sendHttp(ctx.fetch, {
    method: "POST",
    url,
    headers: headers(token, contentType, body.length, "image/gif, image/x-xbitmap, image/jpeg, image/pjpeg, application/vnd.ms-powerpoint, application/ms-excel, application/msword, */*", url),
    body,
  }, ctx.requestMs, op);
  if (looksLikeHtml(answer.text, answer.contentType)) throw htmlError(op, answer);
  const recepcion = parseRecepcionDte(answer.text);
  if (recepcion === null) {
    throw new SiiTransientError(op, answer.status >= 400 ? "http" : "malformed", `unreadable DTEUpload answer (HTTP ${answer.status})`, { httpStatus: answer.status });
  }
  // What a STATUS means is core's (`stateFromUploadStatus`); a STATUS 0 without a TRACKID stays a transient
  // `status` error whose file may have arrived (the caller reconciles before re-sending).
  const verdict = stateFromUploadStatus(recepcion.status);
  if (verdict.kind === "sent" && recepcion.trackId !== null) {
    return { trackId: recepcion.trackId, channel: "dteupload", timestamp: recepcion.timestamp };
  }
  if (verdict.kind === "refused") throw new SiiRefusedError(op, recepcion.status, recepcion.errors, { httpStatus: answer.status });
  throw new SiiTransientError(op, verdict.kind === "retry" && verdict.reauthenticate ? "token" : "status", `DTEUpload STATUS ${recepcion.status}`, {
    httpStatus: answer.status,
    status: recepcion.status,
  });
}

/**
 * POST the boleta REST upload (`boleta.electronica.envio`, multipart, JSON answer). 401 / HTML → transient
 * `token` / `html`; 400 → {@link SiiRefusedError} with status `400`; other 4xx → transient `request_refused`.
 *
 * @example
 * const { trackId } = await uploadBoletaRest(ctx, boletaToken, { kind: "EnvioBOLETA", xml, rutEmisor });
 */
export async function uploadBoletaRest(ctx: ClientContext, token: string, input: UploadInput): Promise<UploadResult> {
  const op = "uploadEnvelope";
  const { body, contentType } = multipart(input, input.rutEnvia ?? ctx.identity.holderRut);
  const url = `${ctx.hosts.boletaUpload}${SII_PATHS.boletaUpload}`;
  const answer = await sendHttp(ctx.fetch, { method: "POST", url, headers: headers(token, contentType, body.length, "application/json", url), body }, ctx.requestMs, op);
  if (answer.status === 401) throw new SiiTransientError(op, "token", "boleta upload: not authenticated (401)", { httpStatus: 401 });
  if (looksLikeHtml(answer.text, answer.contentType)) throw htmlError(op, answer);
  // 400: the SII refused the file itself. Other 4xx (429, 403, 404, 408…) say nothing about the boletas: retry.
  if (answer.status === 400) throw new SiiRefusedError(op, "400", [answer.text.slice(0, 500)], { httpStatus: 400 });
  if (answer.status >= 400 && answer.status < 500) {
    throw new SiiTransientError(op, "request_refused", `boleta upload: HTTP ${answer.status}`, { httpStatus: answer.status, status: String(answer.status) });
  }
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch (cause) {
    throw new SiiTransientError(op, "malformed", "boleta upload answer is not JSON", { httpStatus: answer.status, cause });
  }
  const parsed = parseBoletaUpload(json);
  if (parsed === null) throw new SiiTransientError(op, "malformed", "boleta upload answer has no trackid", { httpStatus: answer.status });
  return { trackId: parsed.trackId, channel: "boleta-rest", timestamp: parsed.fechaRecepcion };
}

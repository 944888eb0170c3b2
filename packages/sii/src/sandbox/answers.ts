import { escapeXml } from "../protocol/xml-text.js";

/**
 * The SII's inner `<SII:RESPUESTA>` document with header fields (in order) and an optional body.
 *
 * @example
 * respuesta([["ESTADO", "00"]], [["SEMILLA", "123456789012"]]);
 */
export function respuesta(header: ReadonlyArray<readonly [string, string]>, body: ReadonlyArray<readonly [string, string]> = [], bodyFirst = true): string {
  const fields = (list: ReadonlyArray<readonly [string, string]>) => list.map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`).join("");
  const hdr = `<SII:RESP_HDR>${fields(header)}</SII:RESP_HDR>`;
  const bdy = body.length > 0 ? `<SII:RESP_BODY>${fields(body)}</SII:RESP_BODY>` : "";
  return `<?xml version="1.0" encoding="UTF-8"?><SII:RESPUESTA xmlns:SII="http://www.sii.cl/XMLSchema">${bodyFirst ? bdy + hdr : hdr + bdy}</SII:RESPUESTA>`;
}

/**
 * DTEUpload's `RECEPCIONDTE` answer.
 *
 * @example
 * recepcionDte({ rutSender: "11111111-1", rutCompany: "76192083-9", file: "envio.xml", timestamp, status: "0", trackId: "0000000001" });
 */
export function recepcionDte(input: { rutSender: string; rutCompany: string; file: string; timestamp: string; status: string; trackId?: string; errors?: string[] }): string {
  const detail = input.errors && input.errors.length > 0 ? `<DETAIL>${input.errors.map((e) => `<ERROR>${escapeXml(e)}</ERROR>`).join("")}</DETAIL>` : "";
  return (
    `<?xml version="1.0"?>\n<RECEPCIONDTE><RUTSENDER>${escapeXml(input.rutSender)}</RUTSENDER><RUTCOMPANY>${escapeXml(input.rutCompany)}</RUTCOMPANY>` +
    `<FILE>${escapeXml(input.file)}</FILE><TIMESTAMP>${input.timestamp}</TIMESTAMP><STATUS>${input.status}</STATUS>` +
    (input.trackId ? `<TRACKID>${input.trackId}</TRACKID>` : "") + `${detail}</RECEPCIONDTE>`
  );
}

/**
 * The HTML page the SII serves (HTTP 200) when a request is not authenticated or the system is unavailable.
 *
 * @example
 * htmlPage("No está autenticado");
 */
export function htmlPage(message: string): Response {
  const body = `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">\n<html><head><title>SII</title></head><body><p>${escapeXml(message)}</p></body></html>`;
  return new Response(body, { status: 200, headers: { "Content-Type": "text/html; charset=ISO-8859-1" } });
}

/**
 * `YYYY-MM-DD HH:MM:SS` in the sandbox's clock (UTC; the sandbox has no time zone).
 *
 * @example
 * siiTimestamp(new Date("2026-01-15T10:30:00Z")); // "2026-01-15 10:30:00"
 */
export function siiTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

import { SII_PATHS, SII_USER_AGENT, SOAP_SERVICES, type SoapService } from "../protocol/endpoints.js";
import { buildSoapRequest, parseSoapReturn } from "../protocol/soap.js";
import { looksLikeHtml } from "../protocol/xml-text.js";
import type { ClientContext } from "./context.js";
import { SiiTransientError } from "./errors.js";
import { sendHttp } from "./http.js";

/**
 * The headers of a SOAP 1.1 request to the SII (`SOAPAction: ""`, the browser-like User-Agent), plus `extra` (the
 * registry of acceptances and claims sends its token as a cookie).
 *
 * @example
 * soapHeaders(body.length, { Cookie: `TOKEN=${token}` });
 */
export function soapHeaders(contentLength: number, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    "Content-Type": "text/xml; charset=utf-8",
    SOAPAction: '""',
    ...extra,
    "User-Agent": SII_USER_AGENT,
    Accept: "text/xml, application/soap+xml, */*",
    "Content-Length": String(contentLength),
  };
}

/**
 * Calls one SII SOAP operation and returns the unescaped XML document of its `…Return`. An HTML page becomes a
 * transient `html` error (the caller may re-authenticate once), a body without `…Return` a `malformed` one.
 *
 * @example
 * const inner = await callSoap(ctx, "CrSeed", {}, "getSeed");
 */
export async function callSoap(
  ctx: ClientContext,
  service: SoapService,
  values: Readonly<Record<string, string>>,
  operation: string,
): Promise<string> {
  const body = new TextEncoder().encode(buildSoapRequest(service, ctx.hosts.namespaceHost, values));
  const answer = await sendHttp(
    ctx.fetch,
    {
      method: "POST",
      url: `${ctx.hosts.soap}${SII_PATHS.soap(service)}`,
      headers: soapHeaders(body.length),
      body,
    },
    ctx.requestMs,
    operation,
  );
  if (looksLikeHtml(answer.text, answer.contentType)) {
    throw new SiiTransientError(operation, "html", `SII answered an HTML page to ${operation}`, { httpStatus: answer.status });
  }
  const inner = parseSoapReturn(answer.text, SOAP_SERVICES[service].operation);
  if (inner === null) {
    throw new SiiTransientError(operation, answer.status >= 400 ? "http" : "malformed",
      `SII answer to ${operation} has no ${SOAP_SERVICES[service].operation}Return (HTTP ${answer.status})`,
      { httpStatus: answer.status });
  }
  return inner;
}

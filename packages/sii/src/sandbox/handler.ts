import { SII_PATHS, SOAP_SERVICES, type SoapService } from "../protocol/endpoints.js";
import { buildSoapFault, buildSoapResponse, parseSoapRequest } from "../protocol/soap.js";
import { htmlPage, respuesta } from "./answers.js";
import { handleBoletaDocumentStatus, handleBoletaStatus } from "./boleta-status.js";
import { handleReceiverRegistry } from "./receiver-registry-service.js";
import { seedAnswer, tokenAnswer } from "./soap-auth.js";
import { estDteAnswer, estUpAnswer } from "./soap-queries.js";
import type { FaultSpec } from "./faults.js";
import type { SandboxState } from "./state.js";
import { handleBoletaUpload, handleDteUpload } from "./upload-handlers.js";

const soapFault = (message: string) =>
  new Response(buildSoapFault("soapenv:Client", message), { status: 500, headers: { "Content-Type": "text/xml; charset=utf-8" } });

/** Axis binds RPC parameters by position: read by name, fall back to the WSDL position. */
function param(params: Map<string, string>, service: SoapService, name: string): string {
  const byName = params.get(name);
  if (byName !== undefined) return byName.trim();
  const index = (SOAP_SERVICES[service].params as readonly string[]).indexOf(name);
  return ([...params.values()][index] ?? "").trim();
}

async function handleSoap(state: SandboxState, service: SoapService, req: Request): Promise<Response> {
  const request = parseSoapRequest(await req.text());
  if (request === null || request.operation !== SOAP_SERVICES[service].operation) return soapFault("No such operation");
  const p = (name: string) => param(request.params, service, name);
  let inner: string;
  if (service === "CrSeed") inner = seedAnswer(state);
  else if (service === "GetTokenFromSeed") inner = tokenAnswer(state, p("pszXml"), "dte");
  else if (service === "QueryEstUp") inner = estUpAnswer(state, { rut: p("RutCompania"), dv: p("DvCompania"), trackId: p("TrackId"), token: p("Token") });
  else {
    inner = estDteAnswer(state, {
      rutCompania: `${p("RutCompania")}-${p("DvCompania")}`, tipo: Number(p("TipoDte")), folio: Number(p("FolioDte")),
      fecha: p("FechaEmisionDte"), monto: Number(p("MontoDte")), rutReceptor: `${p("RutReceptor")}-${p("DvReceptor")}`, token: p("Token"),
    });
  }
  return new Response(buildSoapResponse(service, state.settings.namespaceHost, inner), { headers: { "Content-Type": "text/xml; charset=utf-8" } });
}

/** The fault's answer, or null when the request is answered normally (`slow` and `hold` after their wait). */
async function injectFault(state: SandboxState, req: Request, path: string, spec: FaultSpec): Promise<Response | null> {
  const fault = spec.mode;
  if (fault === "lost_answer") return null; // the upload itself answers without a track id
  if (fault === "slow") {
    await new Promise((resolve) => setTimeout(resolve, spec.delayMs ?? 200));
    return null;
  }
  if (fault === "hold") {
    await state.faults.hold(req.signal);
    return null;
  }
  if (fault === "http500") return new Response("Internal Server Error", { status: 500 });
  if (fault === "down") return new Response("<html><body>503 Service Unavailable</body></html>", { status: 503, headers: { "Content-Type": "text/html" } });
  if (fault === "timeout") await state.hang();
  if (fault === "token_refused") {
    const inner = respuesta([["ESTADO", "-07"], ["GLOSA", "Error (12) parse ERROR en Validacion del RUT"]], [], false);
    if (path === SII_PATHS.boletaToken) return new Response(inner, { headers: { "Content-Type": "application/xml" } });
    return new Response(buildSoapResponse("GetTokenFromSeed", state.settings.namespaceHost, inner), { headers: { "Content-Type": "text/xml; charset=utf-8" } });
  }
  return htmlPage("Servicio no disponible temporalmente");
}

const SOAP_BY_PATH = new Map<string, SoapService>(
  (Object.keys(SOAP_SERVICES) as SoapService[]).map((s) => [SII_PATHS.soap(s), s]),
);

/**
 * Routes a request to the sandbox's SII endpoints (SOAP `.jws`, DTEUpload, boleta REST, the registry of
 * acceptances and claims) after fault injection.
 *
 * @example
 * Bun.serve({ port: 0, fetch: (req) => routeRequest(state, req) });
 */
export async function routeRequest(state: SandboxState, req: Request): Promise<Response> {
  const path = new URL(req.url).pathname;
  const fault = state.faults.take(path);
  if (fault?.mode === "lost_answer" && path === SII_PATHS.dteUpload && req.method === "POST") return handleDteUpload(state, req, { lostAnswer: fault.status ?? "99" });
  const faulted = fault === null ? null : await injectFault(state, req, path, fault);
  if (faulted !== null) return faulted;
  const soap = SOAP_BY_PATH.get(path);
  if (soap !== undefined && req.method === "POST") return handleSoap(state, soap, req);
  if (path === SII_PATHS.dteUpload && req.method === "POST") return handleDteUpload(state, req);
  if (path === SII_PATHS.receiverRegistry && req.method === "POST") return handleReceiverRegistry(state, req);
  if (path === SII_PATHS.boletaSeed && req.method === "GET") {
    return new Response(seedAnswer(state), { headers: { "Content-Type": "application/xml" } });
  }
  if (path === SII_PATHS.boletaToken && req.method === "POST") {
    return new Response(tokenAnswer(state, await req.text(), "boleta"), { headers: { "Content-Type": "application/xml" } });
  }
  if (path === SII_PATHS.boletaUpload && req.method === "POST") return handleBoletaUpload(state, req);
  const status = /^\/recursos\/v1\/boleta\.electronica\.envio\/(\d+)-([\dkK])-(\d+)$/.exec(path);
  if (status && req.method === "GET") return handleBoletaStatus(state, req, `${status[1]}-${status[2]?.toUpperCase()}`, status[3] ?? "");
  const one = /^\/recursos\/v1\/boleta\.electronica\/(\d+)-([\dkK])-(\d+)-(\d+)\/estado$/.exec(path);
  if (one && req.method === "GET") return handleBoletaDocumentStatus(state, req, `${one[1]}-${one[2]?.toUpperCase()}`, Number(one[3]), Number(one[4]));
  return new Response("Not Found", { status: 404 });
}

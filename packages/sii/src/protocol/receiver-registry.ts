/**
 * Message shapes of the SII's "Web Service de Consulta y Registro de Aceptación/Reclamo a DTE recibido" (manual
 * v1.2, 2017). The service is JAX-WS, SOAP 1.1 document/literal wrapped. Its WSDL was not available to us: the
 * element names below are the manual's parameter names (`rutEmisor`, `dvEmisor`, `tipoDoc`, `folio`, `accionDoc`;
 * answers `codResp`, `descResp`, `listaEventosDoc`…) under the service's published namespace, with unqualified
 * children as JAX-WS writes them. Readers elsewhere match by local name, so a different prefix does not matter.
 */
import { escapeXml } from "./xml-text.js";

/** The service's namespace (`ws` in requests, `ns2` in JAX-WS answers). */
export const RECEIVER_REGISTRY_NAMESPACE = "http://ws.registroreclamodte.diii.sii.cl";

const SOAP_ENV = "http://schemas.xmlsoap.org/soap/envelope/";

/** The service's four operations, with their request children in the manual's order. */
export const RECEIVER_REGISTRY_OPERATIONS = {
  ingresarAceptacionReclamoDoc: ["rutEmisor", "dvEmisor", "tipoDoc", "folio", "accionDoc"],
  listarEventosHistDoc: ["rutEmisor", "dvEmisor", "tipoDoc", "folio"],
  consultarDocDteCedible: ["rutEmisor", "dvEmisor", "tipoDoc", "folio"],
  consultarFechaRecepcionSii: ["rutEmisor", "dvEmisor", "tipoDoc", "folio"],
} as const;

/** One operation of the registry of acceptances and claims. */
export type ReceiverRegistryOperation = keyof typeof RECEIVER_REGISTRY_OPERATIONS;

/**
 * Whether a name is one of the service's operations.
 *
 * @example
 * isReceiverRegistryOperation("listarEventosHistDoc"); // true
 */
export function isReceiverRegistryOperation(name: string): name is ReceiverRegistryOperation {
  return Object.hasOwn(RECEIVER_REGISTRY_OPERATIONS, name);
}

/**
 * The request envelope: `<ws:OPERATION>` with unqualified children in the manual's order. `values` must hold every
 * parameter of the operation.
 *
 * @example
 * buildReceiverRegistryRequest("listarEventosHistDoc", { rutEmisor: "76354771", dvEmisor: "K", tipoDoc: "33", folio: "170" });
 */
export function buildReceiverRegistryRequest(operation: ReceiverRegistryOperation, values: Readonly<Record<string, string>>): string {
  const children = RECEIVER_REGISTRY_OPERATIONS[operation]
    .map((name) => {
      const value = values[name];
      if (value === undefined) throw new Error(`missing parameter ${name} for ${operation}`);
      return `<${name}>${escapeXml(value)}</${name}>`;
    })
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<soapenv:Envelope xmlns:soapenv="${SOAP_ENV}" xmlns:ws="${RECEIVER_REGISTRY_NAMESPACE}">` +
    `<soapenv:Body><ws:${operation}>${children}</ws:${operation}></soapenv:Body></soapenv:Envelope>`
  );
}

/**
 * An answer as JAX-WS writes it: `<ns2:OPERATIONResponse><return>…</return></ns2:OPERATIONResponse>`. `returnXml` is
 * the `<return>` content, already XML (escape text yourself).
 *
 * @example
 * buildReceiverRegistryResponse("consultarDocDteCedible", "<codResp>23</codResp><descResp>DTE Cedible, sin reclamos</descResp>");
 */
export function buildReceiverRegistryResponse(operation: ReceiverRegistryOperation, returnXml: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><S:Envelope xmlns:S="${SOAP_ENV}"><S:Body>` +
    `<ns2:${operation}Response xmlns:ns2="${RECEIVER_REGISTRY_NAMESPACE}"><return>${returnXml}</return></ns2:${operation}Response>` +
    `</S:Body></S:Envelope>`
  );
}

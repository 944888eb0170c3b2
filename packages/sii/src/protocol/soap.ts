import { SOAP_SERVICES, type SoapService } from "./endpoints.js";
import { escapeXml, firstElement, unescapeXml } from "./xml-text.js";

const SOAP_ENV = "http://schemas.xmlsoap.org/soap/envelope/";
const XSI = "http://www.w3.org/2001/XMLSchema-instance";
const XSD = "http://www.w3.org/2001/XMLSchema";

/**
 * The operation namespace the WSDLs use: `https://<host>/DTEWS/<Service>.jws`.
 *
 * @example
 * soapNamespace("CrSeed", "maullin.sii.cl"); // "https://maullin.sii.cl/DTEWS/CrSeed.jws"
 */
export function soapNamespace(service: SoapService, host: string): string {
  return `https://${host}/DTEWS/${service}.jws`;
}

/**
 * A SOAP 1.1 RPC request as in BRIEF §7 (`m:` prefixed operation, parameters in WSDL order, `xsi:type="xsd:string"`).
 * `values` must hold every parameter of the service.
 *
 * @example
 * buildSoapRequest("CrSeed", "maullin.sii.cl", {});
 */
export function buildSoapRequest(service: SoapService, host: string, values: Readonly<Record<string, string>>): string {
  const { operation, params } = SOAP_SERVICES[service];
  const body = params
    .map((name) => {
      const value = values[name];
      if (value === undefined) throw new Error(`missing SOAP parameter ${name} for ${service}`);
      return `<${name} xsi:type="xsd:string">${escapeXml(value)}</${name}>`;
    })
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<SOAP-ENV:Envelope xmlns:SOAP-ENV="${SOAP_ENV}" xmlns:xsi="${XSI}" xmlns:xsd="${XSD}">` +
    `<SOAP-ENV:Body><m:${operation} xmlns:m="${soapNamespace(service, host)}">${body}</m:${operation}>` +
    `</SOAP-ENV:Body></SOAP-ENV:Envelope>`
  );
}

/**
 * A SOAP response as Axis writes it: the inner XML document escaped inside `<…Return xsi:type="xsd:string">`.
 *
 * @example
 * buildSoapResponse("CrSeed", "maullin.sii.cl", "<SII:RESPUESTA …/>");
 */
export function buildSoapResponse(service: SoapService, host: string, innerXml: string): string {
  const { operation } = SOAP_SERVICES[service];
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<soapenv:Envelope xmlns:soapenv="${SOAP_ENV}" xmlns:xsd="${XSD}" xmlns:xsi="${XSI}">\n <soapenv:Body>\n` +
    `  <ns1:${operation}Response soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns1="${soapNamespace(service, host)}">\n` +
    `   <${operation}Return xsi:type="xsd:string">${escapeXml(innerXml)}</${operation}Return>\n` +
    `  </ns1:${operation}Response>\n </soapenv:Body>\n</soapenv:Envelope>`
  );
}

/**
 * A SOAP 1.1 Fault envelope (`faultcode` such as `soapenv:Client` / `soapenv:Server`); served with HTTP 500.
 *
 * @example
 * buildSoapFault("soapenv:Client", "No such operation");
 */
export function buildSoapFault(faultcode: string, faultstring: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP_ENV}"><soapenv:Body><soapenv:Fault>` +
    `<faultcode>${escapeXml(faultcode)}</faultcode><faultstring>${escapeXml(faultstring)}</faultstring>` +
    `</soapenv:Fault></soapenv:Body></soapenv:Envelope>`
  );
}

/**
 * The unescaped XML document inside `<operation>Return`, or `null` when the body is not such a SOAP answer.
 *
 * @example
 * parseSoapReturn(responseText, "getSeed"); // "<?xml …?><SII:RESPUESTA …>"
 */
export function parseSoapReturn(soapText: string, operation: string): string | null {
  const found = firstElement(soapText, `${operation}Return`);
  if (found === undefined) return null;
  return unescapeXml(found.inner).trim();
}

/**
 * Reads an incoming SOAP request (for the sandbox): the operation's local name and its parameters by local name.
 *
 * @example
 * parseSoapRequest(text)?.operation; // "getEstUp"
 */
export function parseSoapRequest(soapText: string): { operation: string; params: Map<string, string> } | null {
  const body = firstElement(soapText, "Body");
  if (body === undefined) return null;
  const op = /<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)(?=[\s/>])[^>]*?(\/?)>/.exec(body.inner);
  if (op?.[1] === undefined) return null;
  const params = new Map<string, string>();
  if (op[2] !== "/") {
    const operationBody = firstElement(body.inner, op[1])?.inner ?? "";
    const re = /<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)(?:\s[^>]*)?>([\s\S]*?)<\/(?:[A-Za-z_][\w.-]*:)?\1\s*>/g;
    for (const match of operationBody.matchAll(re)) {
      params.set(match[1] ?? "", unescapeXml(match[2] ?? ""));
    }
  }
  return { operation: op[1], params };
}

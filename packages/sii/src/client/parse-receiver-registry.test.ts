import { describe, expect, test } from "bun:test";
import { SiiTransientError } from "./errors.js";
import { normalizeSiiDateTime, parseReceiverEvents, parseReceptionDate, parseRegistryAnswer, readRegistryReturn } from "./parse-receiver-registry.js";

// Hand-written answers in the shape JAX-WS gives the manual's fields (the WSDL was not available).
const NS = "http://ws.registroreclamodte.diii.sii.cl";
const soap = (operation: string, returnXml: string, env = "S", ns = "ns2") =>
  `<?xml version="1.0" encoding="UTF-8"?><${env}:Envelope xmlns:${env}="http://schemas.xmlsoap.org/soap/envelope/"><${env}:Body>` +
  `<${ns}:${operation}Response xmlns:${ns}="${NS}"><return>${returnXml}</return></${ns}:${operation}Response></${env}:Body></${env}:Envelope>`;
const ok = (text: string) => ({ status: 200, contentType: "text/xml; charset=utf-8", text });
const event = (cod: string, desc: string, rut: string, dv: string, fecha: string) =>
  `<listaEventosDoc><codEvento>${cod}</codEvento><descEvento>${desc}</descEvento><rutResponsable>${rut}</rutResponsable><dvResponsable>${dv}</dvResponsable><fechaEvento>${fecha}</fechaEvento></listaEventosDoc>`;
const op = "listReceiverEvents";

function thrown(fn: () => unknown): SiiTransientError {
  try {
    fn();
  } catch (error) {
    if (error instanceof SiiTransientError) return error;
    throw error;
  }
  throw new Error("did not throw");
}

describe("registry of acceptances and claims: answers", () => {
  test("ingresarAceptacionReclamoDoc: codResp and descResp, with ns2/S prefixes, other prefixes or none", () => {
    const inner = "<codResp>0</codResp><descResp>Acción Completada OK</descResp>";
    for (const text of [
      soap("ingresarAceptacionReclamoDoc", inner),
      soap("ingresarAceptacionReclamoDoc", inner, "soapenv", "ws"),
      `<Envelope><Body><ingresarAceptacionReclamoDocResponse><return>${inner}</return></ingresarAceptacionReclamoDocResponse></Body></Envelope>`,
    ]) {
      expect(parseRegistryAnswer(readRegistryReturn(ok(text), op), op)).toEqual({ codigo: 0, descripcion: "Acción Completada OK" });
    }
  });

  test("a prefixed return and children, and an empty descResp filled from the table", () => {
    const text = soap("consultarDocDteCedible", "").replace("<return></return>", "<ns2:return><ns2:codResp>22</ns2:codResp><ns2:descResp/></ns2:return>");
    expect(parseRegistryAnswer(readRegistryReturn(ok(text), op), op)).toEqual({
      codigo: 22, descripcion: "No existe registro de reclamo o de recepción de mercadería o servicios.",
    });
  });

  test("listarEventosHistDoc: several events, both date formats, escaped text", () => {
    const inner = "<codResp>15</codResp><descResp>Listado de eventos del documento</descResp>" +
      event("ACD", "Acepta Contenido del Documento", "12345678", "5", "2026-11-20 10:11:12") +
      event("ERM", "Otorga Recibo de Mercader&#237;as o Servicios", "7654321", "k", "21-11-2026 09:00:01");
    expect(parseReceiverEvents(readRegistryReturn(ok(soap("listarEventosHistDoc", inner)), op), op)).toEqual({
      codigo: 15,
      descripcion: "Listado de eventos del documento",
      eventos: [
        { codigo: "ACD", descripcion: "Acepta Contenido del Documento", rutResponsable: "12345678-5", fecha: "2026-11-20T10:11:12" },
        { codigo: "ERM", descripcion: "Otorga Recibo de Mercaderías o Servicios", rutResponsable: "7654321-K", fecha: "2026-11-21T09:00:01" },
      ],
    });
  });

  test("listarEventosHistDoc: one event (missing description and responsible), and none (16)", () => {
    const one = "<codResp>15</codResp><descResp>Listado</descResp><listaEventosDoc><codEvento>RCD</codEvento><fechaEvento>2026-11-20T10:11:12.0</fechaEvento></listaEventosDoc>";
    expect(parseReceiverEvents(one, op).eventos).toEqual([
      { codigo: "RCD", descripcion: "Reclamo al Contenido del Documento", rutResponsable: null, fecha: "2026-11-20T10:11:12" },
    ]);
    const none = parseReceiverEvents(readRegistryReturn(ok(soap("listarEventosHistDoc", "<codResp>16</codResp><descResp>Documento no presenta eventos de reclamos o acuse de recibo</descResp>")), op), op);
    expect(none).toEqual({ codigo: 16, descripcion: "Documento no presenta eventos de reclamos o acuse de recibo", eventos: [] });
  });

  test("dates: local forms as written, ISO with an offset converted to Chile's time, anything else kept", () => {
    expect(normalizeSiiDateTime("2026-11-20 10:11:12")).toBe("2026-11-20T10:11:12");
    expect(normalizeSiiDateTime(" 20-11-2026 10:11:12 ")).toBe("2026-11-20T10:11:12");
    expect(normalizeSiiDateTime("20/11/2026 10:11")).toBe("2026-11-20T10:11:00");
    expect(normalizeSiiDateTime("2026-11-20T10:11:12")).toBe("2026-11-20T10:11:12");
    expect(normalizeSiiDateTime("2026-01-15T13:04:05Z")).toBe("2026-01-15T10:04:05");
    expect(normalizeSiiDateTime("2026-07-15T10:04:05-04:00")).toBe("2026-07-15T10:04:05");
    expect(normalizeSiiDateTime("ayer")).toBe("ayer");
  });

  test("consultarFechaRecepcionSii: a date, an empty return (not received), a self-closing return", () => {
    const read = (text: string) => parseReceptionDate(readRegistryReturn(ok(text), "getSiiReceptionDate"), "getSiiReceptionDate");
    expect(read(soap("consultarFechaRecepcionSii", "20-11-2026 10:11:12"))).toBe("2026-11-20T10:11:12");
    expect(read(soap("consultarFechaRecepcionSii", ""))).toBeNull();
    expect(read(soap("consultarFechaRecepcionSii", "").replace("<return></return>", "<return/>"))).toBeNull();
    expect(read(soap("consultarFechaRecepcionSii", "<codResp>18</codResp><descResp>x</descResp>"))).toBeNull();
  });

  test("codResp -1 is transient (estado, -1); other codes are data", () => {
    const error = thrown(() => parseRegistryAnswer("<codResp>-1</codResp><descResp>Error Interno</descResp>", "registerReceiverAction"));
    expect(error).toMatchObject({ reason: "estado", status: "-1", operation: "registerReceiverAction" });
    expect(thrown(() => parseReceiverEvents("<codResp>-1</codResp>", op)).reason).toBe("estado");
    expect(parseRegistryAnswer("<codResp>8</codResp><descResp>Pasados 8 días</descResp>", op).codigo).toBe(8);
  });

  test("a SOAP Fault (with HTTP 500 or 200) reads as a token problem; other 5xx as http", () => {
    const faultText = `<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><S:Fault><faultcode>S:Server</faultcode><faultstring>Token no válido</faultstring></S:Fault></S:Body></S:Envelope>`;
    expect(thrown(() => readRegistryReturn({ status: 500, contentType: "text/xml", text: faultText }, op))).toMatchObject({ reason: "token", httpStatus: 500 });
    expect(thrown(() => readRegistryReturn(ok(faultText), op)).reason).toBe("token");
    expect(thrown(() => readRegistryReturn({ status: 503, contentType: "text/html", text: "<html>503</html>" }, op)).reason).toBe("http");
  });

  test("an HTML page is html; a body without return is malformed (http for a 4xx)", () => {
    expect(thrown(() => readRegistryReturn({ status: 200, contentType: "text/html; charset=ISO-8859-1", text: "<!DOCTYPE html><html><body>login</body></html>" }, op)).reason).toBe("html");
    expect(thrown(() => readRegistryReturn(ok("<html><body>x</body></html>"), op)).reason).toBe("html");
    expect(thrown(() => readRegistryReturn(ok(soap("listarEventosHistDoc", "").replace(/<return><\/return>/, "")), op)).reason).toBe("malformed");
    expect(thrown(() => readRegistryReturn({ status: 404, contentType: "text/plain", text: "Not Found" }, op)).reason).toBe("http");
    expect(thrown(() => parseRegistryAnswer("<descResp>sin código</descResp>", op)).reason).toBe("malformed");
  });
});

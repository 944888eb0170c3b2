import { describe, expect, test } from "bun:test";
import { latin1Encode } from "../protocol/bytes.js";
import { decodeSiiBytes } from "../protocol/bytes.js";
import { parseSoapReturn } from "../protocol/soap.js";
import { parseSeedAnswer, parseTokenAnswer } from "./parse-auth.js";
import { parseBoletaStatus, parseBoletaUpload } from "./parse-boleta.js";
import { parseEstDteAnswer } from "./parse-est-dte.js";
import { parseEstUpAnswer } from "./parse-est-up.js";
import { parseRecepcionDte } from "./parse-recepcion.js";

// The SII's answers as quoted in BRIEF §7 (real captures / manual).
const SEED_SOAP = `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"
   xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
 <soapenv:Body>
  <ns1:getSeedResponse soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns1="https://palena.sii.cl/DTEWS/CrSeed.jws">
   <getSeedReturn xsi:type="xsd:string">&lt;?xml version=&quot;1.0&quot; encoding=&quot;UTF-8&quot;?&gt;&lt;SII:RESPUESTA xmlns:SII=&quot;http://www.sii.cl/XMLSchema&quot;&gt;&lt;SII:RESP_BODY&gt;&lt;SEMILLA&gt;168441616904&lt;/SEMILLA&gt;&lt;/SII:RESP_BODY&gt;&lt;SII:RESP_HDR&gt;&lt;ESTADO&gt;00&lt;/ESTADO&gt;&lt;/SII:RESP_HDR&gt;&lt;/SII:RESPUESTA&gt;</getSeedReturn>
  </ns1:getSeedResponse>
 </soapenv:Body>
</soapenv:Envelope>`;

describe("SII answer parsers (BRIEF §7 samples)", () => {
  test("seed inside an escaped SOAP return, body before header", () => {
    const inner = parseSoapReturn(SEED_SOAP, "getSeed");
    expect(inner).toStartWith("<?xml");
    expect(parseSeedAnswer(inner ?? "")).toEqual({ estado: "00", semilla: "168441616904" });
  });
  test("unprefixed operation element and CDATA return", () => {
    const soap = `<Envelope><Body><getTokenResponse><getTokenReturn><![CDATA[<RESPUESTA><RESP_HDR><ESTADO>00</ESTADO><GLOSA>Token Creado</GLOSA></RESP_HDR><RESP_BODY><TOKEN>XAuSbYXiNh9Ik</TOKEN></RESP_BODY></RESPUESTA>]]></getTokenReturn></getTokenResponse></Body></Envelope>`;
    expect(parseTokenAnswer(parseSoapReturn(soap, "getToken") ?? "")).toEqual({ estado: "00", glosa: "Token Creado", token: "XAuSbYXiNh9Ik" });
  });
  test("RECEPCIONDTE success keeps the TRACKID's leading zero", () => {
    const r = parseRecepcionDte(`<?xml version="1.0"?><RECEPCIONDTE><RUTSENDER>11111111-1</RUTSENDER><RUTCOMPANY>76192083-9</RUTCOMPANY>
<FILE>envio.xml</FILE><TIMESTAMP>2026-01-15 10:30:00</TIMESTAMP><STATUS>0</STATUS><TRACKID>0260003916</TRACKID>
</RECEPCIONDTE>`);
    expect(r).toMatchObject({ status: "0", trackId: "0260003916", rutCompany: "76192083-9", file: "envio.xml", errors: [] });
  });
  test("RECEPCIONDTE failure with DETAIL/ERROR", () => {
    const r = parseRecepcionDte(`<RECEPCIONDTE><STATUS>7</STATUS><DETAIL><ERROR>LSX-00265: x</ERROR><ERROR>second</ERROR></DETAIL></RECEPCIONDTE>`);
    expect(r).toMatchObject({ status: "7", trackId: null, errors: ["LSX-00265: x", "second"] });
    expect(parseRecepcionDte("<html><body>error</body></html>")).toBeNull();
  });
  test("QueryEstUp with counts per type", () => {
    const a = parseEstUpAnswer(`<SII:RESPUESTA xmlns:SII="http://www.sii.cl/XMLSchema">
 <SII:RESP_BODY><TIPO_DOCTO>33</TIPO_DOCTO><INFORMADOS>1</INFORMADOS><ACEPTADOS>1</ACEPTADOS>
   <RECHAZADOS>0</RECHAZADOS><REPAROS>0</REPAROS><TIPO_DOCTO>61</TIPO_DOCTO><INFORMADOS>2</INFORMADOS><ACEPTADOS>1</ACEPTADOS>
   <RECHAZADOS>1</RECHAZADOS><REPAROS>0</REPAROS></SII:RESP_BODY>
 <SII:RESP_HDR><TRACKID>0260003916</TRACKID><ESTADO>EPR</ESTADO><GLOSA>Envio Procesado</GLOSA>
   <NUM_ATENCION>34909   ( 2026/09/23 16:29:53)</NUM_ATENCION></SII:RESP_HDR></SII:RESPUESTA>`);
    expect(a.estado).toBe("EPR");
    expect(a.trackId).toBe("0260003916");
    expect(a.counts).toEqual([
      { tipo: 33, informados: 1, aceptados: 1, rechazados: 0, reparos: 0 },
      { tipo: 61, informados: 2, aceptados: 1, rechazados: 1, reparos: 0 },
    ]);
  });
  test("QueryEstUp still processing (-11, ERR_CODE 2)", () => {
    const a = parseEstUpAnswer(`<SII:RESPUESTA><SII:RESP_HDR><ESTADO>-11</ESTADO><ERR_CODE>2</ERR_CODE></SII:RESP_HDR></SII:RESPUESTA>`);
    expect(a).toMatchObject({ estado: "-11", errCode: "2", counts: [] });
  });
  test("QueryEstDte", () => {
    const a = parseEstDteAnswer(`<SII:RESPUESTA xmlns:SII="http://www.sii.cl/XMLSchema"><SII:RESP_HDR><ESTADO>DOK</ESTADO>
<GLOSA_ESTADO>Documento Recibido por el SII. Datos Coinciden con los Registrados</GLOSA_ESTADO><ERR_CODE>0</ERR_CODE><GLOSA_ERR>x</GLOSA_ERR><NUM_ATENCION>1</NUM_ATENCION>
</SII:RESP_HDR></SII:RESPUESTA>`);
    expect(a).toMatchObject({ estado: "DOK", errCode: "0", numAtencion: "1" });
  });
  test("Latin-1 bytes in a UTF-8 declared answer", () => {
    const text = decodeSiiBytes(latin1Encode("<GLOSA>Envío</GLOSA>"));
    expect(parseTokenAnswer(text).glosa).toBe("Envío");
  });
  test("boleta REST JSON", () => {
    expect(parseBoletaUpload({ rut_emisor: "76192083-9", trackid: 123456789012345, estado: "REC", fecha_recepcion: "2026-01-15 10:00:00" }))
      .toEqual({ trackId: "123456789012345", estado: "REC", fechaRecepcion: "2026-01-15 10:00:00" });
    const s = parseBoletaStatus({ trackid: 1, estado: "EPR", estadistica: [{ tipo: 39, informados: 2, aceptados: 1, rechazados: 1, reparos: 0 }],
      detalle_rep_rech: [{ tipo: 39, folio: 7, estado: "RCH", descripcion: "x", error: [{ seccion: "CAF", linea: 0, nivel: 3, codigo: "CAF-3-517", descripcion: "CAF Vencido", detalle: null }] }] });
    expect(s.counts[0]).toEqual({ tipo: 39, informados: 2, aceptados: 1, rechazados: 1, reparos: 0 });
    expect(s.documents[0]).toEqual({ tipo: 39, folio: 7, estado: "RCH", errors: [{ codigo: "CAF-3-517", descripcion: "CAF Vencido" }] });
  });
  // The shape of the SII's published example: numeric codigo beside seccion and nivel, a line without tipo.
  test("boleta REST JSON as the SII writes it: codes composed SECCION-NIVEL-CODIGO, a missing tipo is the envelope's only one", () => {
    const line = (folio: number, tipo?: number) => ({
      ...(tipo === undefined ? {} : { tipo }),
      folio,
      estado: "RPR",
      descripcion: "Dte Aceptado con reparos",
      error: [{ seccion: "DET", linea: 2, nivel: 1, codigo: 200, descripcion: "Valor Detalle Distinto a Precio * Cantidad", detalle: "[2500 <> 3500]" }],
    });
    const one = parseBoletaStatus({ trackid: 1014, estado: "EPR", estadistica: [{ tipo: 39, informados: 3, aceptados: 2, rechazados: 0, reparos: 1 }], detalle_rep_rech: [line(3500)] });
    expect(one.documents[0]).toEqual({ tipo: 39, folio: 3500, estado: "RPR", errors: [{ codigo: "DET-1-200", descripcion: "Valor Detalle Distinto a Precio * Cantidad", detalle: "[2500 <> 3500]" }] });
    const two = parseBoletaStatus({
      trackid: 1014,
      estado: "EPR",
      estadistica: [{ tipo: 39, informados: 3, aceptados: 2, rechazados: 0, reparos: 1 }, { tipo: 41, informados: 1, aceptados: 1, rechazados: 0, reparos: 0 }],
      detalle_rep_rech: [line(3500), line(12, 41)],
    });
    expect(two.documents.map((d) => [d.tipo, d.folio])).toEqual([[null, 3500], [41, 12]]);
  });
});

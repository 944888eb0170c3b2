import { describe, expect, test } from "bun:test";
import { readSiiData } from "../../test/support/sii-data.js";
import { cafFor, SAMPLE_RESOLUTION, SAMPLE_T33, SAMPLE_T39, SAMPLE_TIMESTAMP, sampleIdentity } from "../../test/support/signing-fixtures.js";
import { CASES } from "../../test/support/document-cases.js";
import type { DocumentInput } from "../document/types.js";
import { isTimbreError, ValidationError } from "../errors/index.js";
import { verifyDte } from "../signature/verify-dte.js";
import { verifyEnvelope } from "../signature/verify-envelope.js";
import { computeTotals } from "../totals/index.js";
import { buildDocumento } from "./build-documento.js";
import { buildEnvelope } from "./build-envelope.js";
import { buildSignedDte } from "./build-signed-dte.js";
import { buildTed } from "./build-ted.js";
import { decodeLatin1, encodeLatin1 } from "./latin1.js";
import { validateDocument } from "./validate-document.js";

const sign = (input: DocumentInput, timestamp = SAMPLE_TIMESTAMP) =>
  buildSignedDte({ input, totals: computeTotals(input), caf: cafFor(input.tipo), identity: sampleIdentity(), timestamp });
const envelopeOf = (kind: "EnvioDTE" | "EnvioBOLETA", dtes: string[]) =>
  buildEnvelope({ kind, rutEmisor: "76192083-9", rutEnvia: "11111111-1", resolution: SAMPLE_RESOLUTION, dtes, identity: sampleIdentity(), timestamp: SAMPLE_TIMESTAMP });
const body = (name: string) => buildDocumento(CASES[name] as DocumentInput, computeTotals(CASES[name] as DocumentInput));

describe("reproduces the synthetic SII samples byte for byte (same key, same certificate, same CAF)", () => {
  test.each([
    ["EnvioDTE-T33F1.xml", SAMPLE_T33, "EnvioDTE"],
    ["EnvioBOLETA-T39F1.xml", SAMPLE_T39, "EnvioBOLETA"],
  ] as const)("%s", (file, input, kind) => {
    const dte = sign(input);
    expect(encodeLatin1(envelopeOf(kind, [dte.xml]))).toEqual(readSiiData(`fixtures/synthetic/${file}`));
  });

  test("DTE-T33F1.xml: the stand-alone DTE and its TED", () => {
    const sample = decodeLatin1(readSiiData("fixtures/synthetic/DTE-T33F1.xml")).trim();
    const dte = sign(SAMPLE_T33);
    expect(dte.xml).toBe(sample);
    expect(dte.documentId).toBe("T33F1");
    expect(sample).toContain(dte.ted);
  });
});

describe("document shapes (BRIEF §2.1)", () => {
  test("factura: FmaPago, exempt lines IndExe 1, price-0 lines without PrcItem, DscRcgGlobal without IndExeDR", () => {
    const xml = body("33 factura");
    expect(xml).toStartWith('<Documento ID="T33F7"><Encabezado><IdDoc><TipoDTE>33</TipoDTE><Folio>7</Folio><FchEmis>2026-01-15</FchEmis><FmaPago>2</FmaPago></IdDoc>');
    expect(xml).toContain("<IndExe>1</IndExe><NmbItem>Libro técnico (exento)</NmbItem>");
    expect(xml).toContain("<NmbItem>Regalo promocional</NmbItem><QtyItem>1</QtyItem><MontoItem>0</MontoItem>");
    expect(xml).toContain("<ValorDR>5</ValorDR></DscRcgGlobal>");
    expect(xml).toContain("<MntNeto>47004</MntNeto><MntExe>38970</MntExe><TasaIVA>19</TasaIVA><IVA>8931</IVA><MntTotal>94905</MntTotal>");
    expect(xml).toContain("<QtyItem>2.5</QtyItem><UnmdItem>MT</UnmdItem><PrcItem>1990.5</PrcItem><DescuentoPct>10</DescuentoPct><DescuentoMonto>498</DescuentoMonto>");
    expect(xml).not.toContain("/>");
  });

  test("factura with additional taxes: CodImpAdic before MontoItem, one ImptoReten per code after IVA", () => {
    const xml = body("33 impuestos adicionales");
    expect(xml).toContain("<DescuentoPct>5</DescuentoPct><DescuentoMonto>414</DescuentoMonto><CodImpAdic>27</CodImpAdic><MontoItem>7866</MontoItem>");
    expect(xml).toContain("<NmbItem>Vaso plástico</NmbItem><QtyItem>100</QtyItem><PrcItem>25</PrcItem><MontoItem>2500</MontoItem>");
    expect(xml).toContain(
      "<MntNeto>130746</MntNeto><TasaIVA>19</TasaIVA><IVA>24842</IVA>" +
        "<ImptoReten><TipoImp>271</TipoImp><TasaImp>18</TasaImp><MontoImp>9450</MontoImp></ImptoReten>" +
        "<ImptoReten><TipoImp>27</TipoImp><TasaImp>10</TasaImp><MontoImp>787</MontoImp></ImptoReten>" +
        "<ImptoReten><TipoImp>25</TipoImp><TasaImp>20.5</TasaImp><MontoImp>6138</MontoImp></ImptoReten>" +
        "<ImptoReten><TipoImp>26</TipoImp><TasaImp>20.5</TasaImp><MontoImp>4502</MontoImp></ImptoReten>" +
        "<ImptoReten><TipoImp>24</TipoImp><TasaImp>31.5</TasaImp><MontoImp>5034</MontoImp></ImptoReten>" +
        "<MntTotal>181499</MntTotal></Totales>",
    );
  });

  test("factura with gross prices carries MntBruto 1", () => {
    // FmaPago unspecified on a 33 is written as the 2 (crédito) the SII would assume
    expect(body("33 precios brutos")).toContain("<FchEmis>2026-01-15</FchEmis><MntBruto>1</MntBruto><FmaPago>2</FmaPago></IdDoc>");
  });

  test("34: every line IndExe 1, only MntExe/MntTotal, IndExeDR 1", () => {
    const xml = body("34 factura exenta");
    expect(xml.match(/<IndExe>1<\/IndExe>/g)?.length).toBe(2);
    expect(xml).toContain("<Totales><MntExe>162000</MntExe><MntTotal>162000</MntTotal></Totales>");
    expect(xml).toContain("<ValorDR>10</ValorDR><IndExeDR>1</IndExeDR></DscRcgGlobal>");
    expect(xml).toContain("<FmaPago>1</FmaPago>");
  });

  test("boletas: RznSocEmisor/GiroEmisor, IndServicio 3, no Acteco/TasaIVA/FchRef; IndMntNeto 2 for net prices", () => {
    const gross = body("39 boleta bruta");
    expect(gross).toContain("<IndServicio>3</IndServicio></IdDoc><Emisor><RUTEmisor>76192083-9</RUTEmisor><RznSocEmisor>SASCO SpA</RznSocEmisor><GiroEmisor>");
    expect(gross).toContain("<Receptor><RUTRecep>66666666-6</RUTRecep></Receptor>");
    expect(gross).toContain("<Referencia><NroLinRef>1</NroLinRef><TpoDocRef>SET</TpoDocRef><FolioRef>1</FolioRef><RazonRef>CASO-1</RazonRef></Referencia>");
    for (const absent of ["Acteco", "TasaIVA", "FchRef", "IndMntNeto", "FmaPago", "GiroRecep"]) expect(gross).not.toContain(`<${absent}>`);
    expect(body("39 boleta neta")).toContain("<IndServicio>3</IndServicio><IndMntNeto>2</IndMntNeto></IdDoc>");
    const exenta = body("41 boleta exenta");
    expect(exenta).toContain("<Totales><MntExe>4200</MntExe><MntTotal>4200</MntTotal></Totales>");
    expect(exenta).toContain("<IndExeDR>1</IndExeDR>");
  });

  test("notes: references with CodRef; a text correction has zero amounts and no prices", () => {
    expect(body("56 nota de débito")).toContain("<FchRef>2026-01-15</FchRef><CodRef>3</CodRef><RazonRef>Cobro de intereses</RazonRef>");
    const text = body("61 nota de crédito corrige texto");
    expect(text).toContain("<MntNeto>0</MntNeto><TasaIVA>19</TasaIVA><IVA>0</IVA><MntTotal>0</MntTotal>");
    expect(text).not.toContain("<PrcItem>");
  });

  test("guía 52: TipoDespacho then IndTraslado after FchEmis, no FmaPago unless given, Transporte between Receptor and Totales", () => {
    const xml = body("52 guía venta");
    expect(xml).toStartWith(
      '<Documento ID="T52F21"><Encabezado><IdDoc><TipoDTE>52</TipoDTE><Folio>21</Folio><FchEmis>2026-01-15</FchEmis>' +
        "<TipoDespacho>2</TipoDespacho><IndTraslado>1</IndTraslado></IdDoc><Emisor><RUTEmisor>76192083-9</RUTEmisor>",
    );
    expect(xml).toContain(
      "<CiudadRecep>Santiago</CiudadRecep></Receptor>" +
        "<Transporte><Patente>BBCL-45</Patente><RUTTrans>77777777-7</RUTTrans>" +
        "<Chofer><RUTChofer>12345678-5</RUTChofer><NombreChofer>José Ñancupil Araya</NombreChofer></Chofer>" +
        "<DirDest>Camino a Melipilla 12.345, bodega 3</DirDest><CmnaDest>Maipú</CmnaDest><CiudadDest>Santiago</CiudadDest></Transporte>" +
        "<Totales><MntNeto>126738</MntNeto><MntExe>17000</MntExe><TasaIVA>19</TasaIVA><IVA>24080</IVA><MntTotal>167818</MntTotal></Totales></Encabezado>",
    );
    expect(xml).toContain("<QtyItem>40</QtyItem><UnmdItem>MT</UnmdItem><PrcItem>1990.5</PrcItem><DescuentoPct>10</DescuentoPct><DescuentoMonto>7962</DescuentoMonto><MontoItem>71658</MontoItem>");
    expect(xml).toContain("<IndExe>1</IndExe><NmbItem>Manual de instalación (exento)</NmbItem>");
    expect(xml).toContain("<Referencia><NroLinRef>1</NroLinRef><TpoDocRef>801</TpoDocRef><FolioRef>OC-4471</FolioRef><FchRef>2026-01-10</FchRef>");
    expect(xml).not.toContain("<FmaPago>");
    // the XSD's order, element by element: IdDoc … FchEmis, TipoDespacho, IndTraslado; Encabezado … Receptor, Transporte, Totales
    const order = (names: string[]) => names.map((n) => xml.indexOf(`<${n}>`));
    const ascending = (positions: number[]) => positions.every((p, i) => p >= 0 && (i === 0 || p > (positions[i - 1] ?? 0)));
    expect(ascending(order(["TipoDTE", "Folio", "FchEmis", "TipoDespacho", "IndTraslado"]))).toBe(true);
    expect(ascending(order(["IdDoc", "Emisor", "Receptor", "Transporte", "Totales"]))).toBe(true);
    expect(ascending(order(["Patente", "RUTTrans", "Chofer", "RUTChofer", "NombreChofer", "DirDest", "CmnaDest", "CiudadDest"]))).toBe(true);
    // FmaPago when given comes after IndTraslado; a transport with nothing in it is left out
    const given = { ...(CASES["52 guía venta"] as DocumentInput), formaPago: 1 as const, transporte: {} };
    const other = buildDocumento(given, computeTotals(given));
    expect(other).toContain("<TipoDespacho>2</TipoDespacho><IndTraslado>1</IndTraslado><FmaPago>1</FmaPago></IdDoc>");
    expect(other).toContain("</Receptor><Totales>");
    // JSON nulls are absent values, in validation and in the XML
    const nulls = { ...(CASES["52 guía venta"] as DocumentInput), traslado: { indicador: 6, despacho: null }, transporte: { patente: "BBCL45", rutTransportista: null, chofer: null } } as unknown as DocumentInput;
    expect(validateDocument(nulls)).toEqual([]);
    const withNulls = buildDocumento(nulls, computeTotals(nulls));
    expect(withNulls).toContain("<FchEmis>2026-01-15</FchEmis><IndTraslado>6</IndTraslado></IdDoc>");
    expect(withNulls).toContain("</Receptor><Transporte><Patente>BBCL45</Patente></Transporte><Totales>");
  });

  test("guía 52 without prices (traslado interno): IndTraslado alone, Totales with MntTotal 0 only, no PrcItem", () => {
    const xml = body("52 traslado interno");
    expect(xml).toContain("<FchEmis>2026-01-15</FchEmis><IndTraslado>5</IndTraslado></IdDoc>");
    expect(xml).toContain("</Receptor><Totales><MntTotal>0</MntTotal></Totales></Encabezado>");
    expect(xml).not.toContain("<PrcItem>");
    expect(xml).not.toContain("<Transporte>");
    expect(xml).not.toContain("<TipoDespacho>");
    expect(sign(CASES["52 traslado interno"] as DocumentInput).ted).toContain("<TD>52</TD><F>22</F><FE>2026-01-15</FE><RR>76192083-9</RR><RSR>SASCO SpA</RSR><MNT>0</MNT>");
  });

  test("guías go in an EnvioDTE (never an EnvioBOLETA), counted in the carátula", () => {
    const guia = sign(CASES["52 guía venta"] as DocumentInput).xml;
    const envelope = envelopeOf("EnvioDTE", [sign(SAMPLE_T33).xml, guia]);
    expect(envelope).toContain("<SubTotDTE><TpoDTE>33</TpoDTE><NroDTE>1</NroDTE></SubTotDTE><SubTotDTE><TpoDTE>52</TpoDTE><NroDTE>1</NroDTE></SubTotDTE>");
    // core's own verifier, as the SII checks: signature and timbre of the guía alone and inside the envelope
    expect(verifyDte(guia)).toMatchObject({ valid: true, errors: [] });
    const inEnvelope = verifyEnvelope(envelope);
    expect(inEnvelope.valid).toBe(true);
    expect(inEnvelope.documents?.map((d) => `${d.id}:${d.signature && d.ted}`)).toEqual(["T33F1:true", "T52F21:true"]);
    expect(() => envelopeOf("EnvioBOLETA", [guia])).toThrow(expect.objectContaining({ code: "VALIDATION_ERROR" }));
  });

  test("the TED cuts RSR and IT1 to 40 characters and uses 'Sin RUT' for a nameless receipt", () => {
    const input: DocumentInput = { ...SAMPLE_T33, receiver: { ...SAMPLE_T33.receiver, razonSocial: `${"Ñ".repeat(39)}&tail` } };
    const ted = buildTed({ input, totals: computeTotals(input), caf: cafFor(33), timestamp: SAMPLE_TIMESTAMP });
    expect(ted).toContain(`<RSR>${"Ñ".repeat(39)}&amp;</RSR>`);
    expect(ted).toContain("<IT1>Cajón &quot;Grande&quot; &amp; tapa</IT1>");
    expect(sign(SAMPLE_T39).ted).toContain("<RSR>Sin RUT</RSR>");
  });
});

describe("errors", () => {
  test("invalid input throws ValidationError with every issue", () => {
    const input: DocumentInput = { ...SAMPLE_T33, items: [{ nombre: "☃", cantidad: 0, precio: 1 }] };
    try {
      sign(input);
      throw new Error("expected a ValidationError");
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).issues.map((i) => i.reason)).toEqual(["charset", "minimum"]);
    }
  });

  test("a CAF that does not cover the document throws CAF_INVALID", () => {
    const totals = computeTotals(SAMPLE_T33);
    const cases: [DocumentInput, string][] = [
      [{ ...SAMPLE_T33, folio: 101 }, "folio_out_of_range"],
      [{ ...SAMPLE_T33, issuer: { ...SAMPLE_T33.issuer, rut: "96670340-7" } }, "rut_mismatch"],
    ];
    for (const [input, reason] of cases) {
      expect(() => buildTed({ input, totals, caf: cafFor(33), timestamp: SAMPLE_TIMESTAMP })).toThrow(expect.objectContaining({ code: "CAF_INVALID", details: expect.objectContaining({ reason }) }));
    }
    expect(() => buildTed({ input: SAMPLE_T33, totals, caf: cafFor(34), timestamp: SAMPLE_TIMESTAMP })).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ reason: "tipo_mismatch" }) }),
    );
  });

  test("timestamps must be YYYY-MM-DDTHH:MM:SS", () => {
    for (const ts of ["2026-01-15 10:11:12", "2026-01-15T10:11:12Z", "2026-01-15T10:11:12.123", "2026-01-15T24:00:00"]) {
      expect(() => sign(SAMPLE_T33, ts)).toThrow(expect.objectContaining({ code: "VALIDATION_ERROR" }));
    }
  });

  test("envelopes refuse DTEs of the other kind and bad RUTs", () => {
    const factura = sign(SAMPLE_T33).xml;
    const boleta = sign(SAMPLE_T39).xml;
    expect(() => envelopeOf("EnvioBOLETA", [factura])).toThrow(expect.objectContaining({ code: "VALIDATION_ERROR" }));
    expect(() => envelopeOf("EnvioDTE", [boleta])).toThrow(expect.objectContaining({ code: "VALIDATION_ERROR" }));
    expect(() => envelopeOf("EnvioDTE", [])).toThrow(expect.objectContaining({ code: "VALIDATION_ERROR" }));
    try {
      buildEnvelope({ kind: "EnvioDTE", rutEmisor: "1-1", rutEnvia: "11111111-1", resolution: SAMPLE_RESOLUTION, dtes: [factura], identity: sampleIdentity(), timestamp: SAMPLE_TIMESTAMP });
    } catch (e) {
      expect(isTimbreError(e, "INVALID_RUT")).toBe(true);
    }
  });

  test("envelopes refuse a document twice and a document of another issuer", () => {
    const factura = sign(SAMPLE_T33).xml;
    expect(() => envelopeOf("EnvioDTE", [factura, factura])).toThrow(expect.objectContaining({ code: "VALIDATION_ERROR", message: expect.stringContaining("twice") }));
    expect(envelopeOf("EnvioDTE", [factura, sign({ ...SAMPLE_T33, folio: SAMPLE_T33.folio + 1 }).xml])).toContain("<NroDTE>2</NroDTE>");
    const other = () =>
      buildEnvelope({ kind: "EnvioDTE", rutEmisor: "96670340-7", rutEnvia: "11111111-1", resolution: SAMPLE_RESOLUTION, dtes: [factura], identity: sampleIdentity(), timestamp: SAMPLE_TIMESTAMP });
    expect(other).toThrow(expect.objectContaining({ code: "VALIDATION_ERROR", message: expect.stringContaining("issued by 76192083-9") }));
  });

  test("a line discount that rounds to 0 pesos is left out with its percentage (DescuentoMonto cannot be 0)", () => {
    const input: DocumentInput = { ...SAMPLE_T33, items: [{ nombre: "Tornillo", cantidad: 1, precio: 4, descuentoPorcentaje: 10 }, { nombre: "Perno", cantidad: 1, precio: 100, descuentoPorcentaje: 10 }] };
    const xml = buildDocumento(input, computeTotals(input));
    expect(xml).toContain("<PrcItem>4</PrcItem><MontoItem>4</MontoItem>");
    expect(xml).toContain("<PrcItem>100</PrcItem><DescuentoPct>10</DescuentoPct><DescuentoMonto>10</DescuentoMonto><MontoItem>90</MontoItem>");
  });

  test("envelope defaults RutReceptor to the SII and keeps a given one", () => {
    const dte = sign(SAMPLE_T33).xml;
    expect(envelopeOf("EnvioDTE", [dte])).toContain("<RutReceptor>60803000-K</RutReceptor>");
    const toClient = buildEnvelope({ kind: "EnvioDTE", rutEmisor: "76192083-9", rutEnvia: "11111111-1", rutReceptor: "96.670.340-7", resolution: { numero: 80, fecha: "2014-08-22" }, dtes: [dte], identity: sampleIdentity(), timestamp: SAMPLE_TIMESTAMP });
    expect(toClient).toContain("<RutReceptor>96670340-7</RutReceptor><FchResol>2014-08-22</FchResol><NroResol>80</NroResol>");
  });
});

/**
 * Export documents 110–112 end to end in core: totals, `Exportaciones` XML valid against the SII's XSD (alone and in an
 * EnvioDTE), the DTE signature verified by xmldsigjs and xml-crypto and by our own verifier, the TED's FRMT verified
 * with the CAF key and its MNT exactly the foreign total; and the refusals the issue names.
 */
import { describe, expect, test } from "bun:test";
import { validateXsd } from "@timbre/xsd";
import type { ExportDocumentInput } from "../src/document/export-document.js";
import { verifyDte } from "../src/signature/index.js";
import { buildEnvelope, buildSignedExport, encodeLatin1, validateExportDocument } from "../src/xml/index.js";
import { ISSUER, ISSUER_RUT, TIMESTAMP, cafFor, identity } from "./support/issuer-fixtures.js";
import { cutDtes, verifyTedText, verifyWithXmlCrypto, verifyWithXmldsigjs } from "./support/independent-verify.js";

const RUT = ISSUER_RUT;
const caf = cafFor;
const issuer = ISSUER;
const receiver = { razonSocial: "IMPORTATORE SRL", nacionalidad: 504, direccion: "Via Roma 1, Genova", ciudad: "Genova" };

/** The certified goods case of BRIEF-doctypes §3 (FRANCO SZ, CIF with freight and insurance). */
const GOODS: ExportDocumentInput = {
  tipo: 110, folio: 1, fecha: "2026-06-15", issuer, receiver, moneda: "FRANCO SZ", tipoCambio: 1075,
  formaPagoExportacion: 32, fechaCancelacion: "2026-06-15",
  items: [{ nombre: "CHATARRA", cantidad: 687, unidad: "PAR", precio: 159 }],
  exportacion: {
    modalidadVenta: 1, clausulaVenta: 1, totalClausula: "112517.5", viaTransporte: 1, puertoEmbarque: 906,
    puertoDesembarque: 544, tara: 20, unidadTara: 6, pesoBruto: 700, unidadPesoBruto: 17, pesoNeto: 687,
    unidadPesoNeto: 17, totalItems: 1, bultos: [{ tipo: 89, cantidad: 69, marcas: "S/M" }], flete: "2069.28",
    seguro: "1215.22", paisReceptor: 504, paisDestino: 504,
  },
  referencias: [{ tipoDoc: 807, folio: 123456, fecha: "2026-06-15", razon: "DUS" }],
};

/** Its credit note for a partial return (229 × 159). */
const CREDIT_NOTE: ExportDocumentInput = {
  tipo: 112, folio: 1, fecha: "2026-06-16", issuer, receiver, moneda: "FRANCO SZ", tipoCambio: 1075,
  items: [{ nombre: "CHATARRA", cantidad: 229, unidad: "PAR", precio: 159 }],
  referencias: [{ tipoDoc: 110, folio: 1, fecha: "2026-06-15", codigo: 3, razon: "DEVOLUCION DE MERCADERIAS" }],
};

/** A hotel service (IndServicio 4) in DOLAR USA, with the passport reference (LibreDTE's 110_002). */
const HOTEL: ExportDocumentInput = {
  tipo: 110, folio: 2, fecha: "2026-06-15", issuer, receiver, moneda: "DOLAR USA", tipoCambio: 500, indicadorServicio: 4,
  items: [{ nombre: "Alojamiento", cantidad: 1, precio: 50 }],
  referencias: [{ tipoDoc: 813, folio: "E12345", fecha: "2026-06-15", razon: "Pasaporte" }],
};

const build = (input: ExportDocumentInput) => buildSignedExport({ input, caf: caf(input.tipo), identity, timestamp: TIMESTAMP });

describe.each([["goods 110", GOODS], ["hotel 110", HOTEL], ["credit note 112", CREDIT_NOTE]] as const)("%s", (_, input) => {
  const signed = build(input);

  test("is valid against DTE_v10.xsd", async () => {
    const result = await validateXsd(encodeLatin1(signed.xml), "DTE");
    expect(result.errors).toEqual([]);
  });
  test("its signature verifies with xmldsigjs, xml-crypto and our verifier", async () => {
    expect(await verifyWithXmldsigjs(signed.xml)).toBe(true);
    expect(verifyWithXmlCrypto(signed.xml)).toBe(true);
    expect(verifyDte(signed.xml).errors).toEqual([]);
  });
  test("the TED is stamped with the CAF key and its MNT is the foreign total, unrounded", () => {
    expect(verifyTedText(signed.ted, caf(input.tipo).publicKey)).toBe(true);
    expect(signed.ted).toContain(`<MNT>${signed.totals.montoTotal}</MNT>`);
    expect(signed.ted).toContain("<RR>55555555-5</RR>");
  });
});

test("the goods case carries its totals, pesos block and customs data", () => {
  const { xml, totals } = build(GOODS);
  expect(totals.montoTotal).toBe("112517.5");
  expect(xml).toContain("<Totales><TpoMoneda>FRANCO SZ</TpoMoneda><MntExe>112517.5</MntExe><MntTotal>112517.5</MntTotal></Totales>");
  expect(xml).toContain("<OtraMoneda><TpoMoneda>PESO CL</TpoMoneda><TpoCambio>1075</TpoCambio><MntExeOtrMnda>120956313</MntExeOtrMnda><MntTotOtrMnda>120956313</MntTotOtrMnda></OtraMoneda>");
  expect(xml).toContain("<TotBultos>69</TotBultos><TipoBultos><CodTpoBultos>89</CodTpoBultos><CantBultos>69</CantBultos><Marcas>S/M</Marcas></TipoBultos>");
  expect(xml).toContain("<GlosaDR>FLETE</GlosaDR><TpoValor>$</TpoValor><ValorDR>2069.28</ValorDR><ValorDROtrMnda>2224476</ValorDROtrMnda><IndExeDR>1</IndExeDR>");
});

test("an EnvioDTE of the three is valid and its signature and each DTE's verify in context", async () => {
  const envelope = buildEnvelope({
    kind: "EnvioDTE", rutEmisor: RUT, rutEnvia: "11111111-1", resolution: { numero: 0, fecha: "2014-08-22" },
    dtes: [build(GOODS), build(HOTEL), build(CREDIT_NOTE)], identity, timestamp: TIMESTAMP,
  });
  const result = await validateXsd(encodeLatin1(envelope), "EnvioDTE");
  expect(result.errors).toEqual([]);
  expect(await verifyWithXmldsigjs(envelope)).toBe(true);
  for (const dte of cutDtes(envelope)) expect(await verifyWithXmldsigjs(dte)).toBe(true);
});

describe("refusals, every problem at once with its path", () => {
  const reasons = (input: ExportDocumentInput) => validateExportDocument(input).map((i) => `${i.path}:${i.reason}`);

  test("an ISO currency code is refused, naming the SII's name", () => {
    const issues = validateExportDocument({ ...HOTEL, moneda: "USD" });
    expect(issues).toEqual([{ path: "moneda", reason: "enum", message: expect.stringContaining("DOLAR USA") }]);
  });
  test("no exchange rate, an unknown port and packages without marks", () => {
    const input = {
      ...GOODS,
      tipoCambio: undefined as unknown as number,
      exportacion: { ...GOODS.exportacion, puertoEmbarque: 4242, bultos: [{ tipo: 89, cantidad: 69, marcas: "" }] },
    };
    expect(reasons(input)).toEqual(["tipo_cambio:required", "exportacion.puerto_embarque:enum", "exportacion.bultos[0].marcas:required"]);
  });
  test("a 112 that references a 33 is refused; one with no reference too", () => {
    expect(reasons({ ...CREDIT_NOTE, referencias: [{ tipoDoc: 33, folio: 1, fecha: "2026-06-15", codigo: 1 }] })).toEqual([
      "referencias[0].tipo_doc:not_allowed",
      "referencia:required",
    ]);
    expect(reasons({ ...CREDIT_NOTE, referencias: [] })).toEqual(["referencia:required"]);
  });
  test("goods without customs data; containers without seal", () => {
    expect(reasons({ ...GOODS, exportacion: undefined })).toEqual(["exportacion:required"]);
    const container = { ...GOODS, exportacion: { ...GOODS.exportacion, bultos: [{ tipo: 74, cantidad: 1, marcas: "M" }] } };
    expect(reasons(container)).toEqual(["exportacion.bultos[0].id_container:required", "exportacion.bultos[0].sello:required"]);
  });
});

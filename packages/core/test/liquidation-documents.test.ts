/**
 * The liquidación-factura (43) end to end in core: the SII's certified example and a negative commission as
 * `Liquidacion` XML valid against the SII's XSD (alone and in an EnvioDTE), signatures verified by two independent
 * libraries and our verifier, the TED's FRMT with the CAF key (MNT may be negative); and the refusals.
 */
import { describe, expect, test } from "bun:test";
import { validateXsd } from "@timbre/xsd";
import type { LiquidationDocumentInput } from "../src/document/liquidation-document.js";
import { verifyDte } from "../src/signature/index.js";
import { buildEnvelope, buildSignedLiquidation, encodeLatin1, validateLiquidationDocument } from "../src/xml/index.js";
import { cutDtes, verifyTedText, verifyWithXmlCrypto, verifyWithXmldsigjs } from "./support/independent-verify.js";
import { ISSUER, ISSUER_RUT, SENDER_RUT, TIMESTAMP, cafFor, identity } from "./support/issuer-fixtures.js";

const receiver = { rut: "77777777-7", razonSocial: "MANDANTE LTDA", giro: "Agrícola", direccion: "Fundo El Roble", comuna: "Talca" };

const CERTIFIED: LiquidationDocumentInput = {
  tipo: 43, folio: 1, fecha: "2026-06-15", issuer: ISSUER, receiver,
  documentos: [
    { tipoDocLiq: 33, nombre: "NETO FACTURA ELECTRONICA 1515", cantidad: 1, unidad: "UN", monto: 165775 },
    { tipoDocLiq: 33, nombre: "NETO FACTURAS", cantidad: 129, monto: 69180 },
    { tipoDocLiq: 33, nombre: "EXENTO", cantidad: 22, monto: 55068, exento: true },
  ],
  comisiones: [{ tipo: "C", descripcion: "COMISION", tasa: 2, montoNeto: 4834 }],
};

const NEGATIVE: LiquidationDocumentInput = {
  ...CERTIFIED,
  folio: 2,
  documentos: [
    { tipoDocLiq: 33, nombre: "NETO", monto: 694760 },
    { tipoDocLiq: 33, nombre: "EXENTO", monto: 1098416, exento: true },
  ],
  comisiones: [{ tipo: "C", descripcion: "DEVOLUCION COMISION", montoNeto: -3301 }],
};

const build = (input: LiquidationDocumentInput) => buildSignedLiquidation({ input, caf: cafFor(43), identity, timestamp: TIMESTAMP });

describe.each([["certified example", CERTIFIED, 328912], ["negative commission", NEGATIVE, 1929108]] as const)("%s", (_, input, total) => {
  const signed = build(input);

  test("totals as the SII computes them", () => {
    expect(signed.totals.montoTotal).toBe(total);
    expect(signed.xml).toContain(`<MntTotal>${total}</MntTotal>`);
  });
  test("is valid against DTE_v10.xsd", async () => {
    expect((await validateXsd(encodeLatin1(signed.xml), "DTE")).errors).toEqual([]);
  });
  test("its signature verifies with xmldsigjs, xml-crypto and our verifier; the TED with the CAF key", async () => {
    expect(await verifyWithXmldsigjs(signed.xml)).toBe(true);
    expect(verifyWithXmlCrypto(signed.xml)).toBe(true);
    expect(verifyDte(signed.xml).errors).toEqual([]);
    expect(verifyTedText(signed.ted, cafFor(43).publicKey)).toBe(true);
    expect(signed.ted).toContain(`<MNT>${total}</MNT>`);
  });
});

test("the commission line and the header's sums are written", () => {
  const { xml } = build(CERTIFIED);
  expect(xml).toContain("<Comisiones><ValComNeto>4834</ValComNeto><ValComExe>0</ValComExe><ValComIVA>918</ValComIVA></Comisiones><MntTotal>328912</MntTotal>");
  expect(xml).toContain("<Comisiones><NroLinCom>1</NroLinCom><TipoMovim>C</TipoMovim><Glosa>COMISION</Glosa><TasaComision>2</TasaComision><ValComNeto>4834</ValComNeto><ValComExe>0</ValComExe><ValComIVA>918</ValComIVA></Comisiones><TED");
});

test("an EnvioDTE with both is valid and verifies in context", async () => {
  const envelope = buildEnvelope({
    kind: "EnvioDTE", rutEmisor: ISSUER_RUT, rutEnvia: SENDER_RUT, resolution: { numero: 0, fecha: "2014-08-22" },
    dtes: [build(CERTIFIED), build(NEGATIVE)], identity, timestamp: TIMESTAMP,
  });
  expect((await validateXsd(encodeLatin1(envelope), "EnvioDTE")).errors).toEqual([]);
  expect(await verifyWithXmldsigjs(envelope)).toBe(true);
  for (const dte of cutDtes(envelope)) expect(await verifyWithXmldsigjs(dte)).toBe(true);
});

test("refusals: every problem at once with the API's paths", () => {
  const issues = validateLiquidationDocument({
    ...CERTIFIED,
    receiver: { rut: "77777777-7", razonSocial: "MANDANTE LTDA" },
    documentos: [{ tipoDocLiq: 0, nombre: "", monto: 1.5 }],
    comisiones: [{ tipo: "X" as "C", descripcion: "C", montoNeto: 10 }],
  }).map((i) => `${i.path}:${i.reason}`);
  expect(issues).toEqual([
    "receptor.giro:required",
    "receptor.direccion:required",
    "receptor.comuna:required",
    "liquidacion.documentos[0].tipo_doc_liq:format",
    "liquidacion.documentos[0].nombre:required",
    "liquidacion.documentos[0].monto:type",
    "liquidacion.comisiones[0].tipo:enum",
  ]);
});

describe("a credit note (61) annulling the certified 43", () => {
  const note: LiquidationDocumentInput = {
    ...CERTIFIED, tipo: 61, folio: 7,
    referencias: [{ tipoDoc: 43, folio: 1, fecha: "2026-06-15", codigo: 1, razon: "Anula documento" }],
  };
  const signed = buildSignedLiquidation({ input: note, caf: cafFor(61), identity, timestamp: TIMESTAMP });

  test("is a Documento, valid against DTE_v10.xsd, its commissions in Totales and after Referencia", async () => {
    expect(signed.xml).toContain('<Documento ID="T61F7">');
    expect(signed.xml).not.toContain("TpoDocLiq");
    expect(signed.xml).toContain("<Comisiones><ValComNeto>4834</ValComNeto><ValComExe>0</ValComExe><ValComIVA>918</ValComIVA></Comisiones><MntTotal>328912</MntTotal>");
    expect(signed.xml).toMatch(/<\/Referencia><Comisiones><NroLinCom>1<\/NroLinCom>.*<\/Comisiones><TED/);
    expect((await validateXsd(encodeLatin1(signed.xml), "DTE")).errors).toEqual([]);
  });
  test("carries the 43's total, in the TED too, and verifies independently", async () => {
    expect(signed.totals.montoTotal).toBe(328912);
    expect(signed.ted).toContain("<TD>61</TD>");
    expect(signed.ted).toContain("<MNT>328912</MNT>");
    expect(await verifyWithXmldsigjs(signed.xml)).toBe(true);
    expect(verifyTedText(signed.ted, cafFor(61).publicKey)).toBe(true);
  });
  test("refuses a negative amount (a Documento's MontoType) and a note that references no 43", () => {
    const issues = validateLiquidationDocument({ ...NEGATIVE, tipo: 61, referencias: [{ tipoDoc: 33, folio: 1, fecha: "2026-06-15", codigo: 1 }] })
      .map((i) => `${i.path}:${i.reason}`);
    expect(issues).toEqual(["referencia:required", "liquidacion.comisiones[0].monto_neto:minimum"]);
  });
});

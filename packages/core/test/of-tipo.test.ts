/**
 * One entry for every tipo (`buildSignedDteOfTipo`, `buildBranchOfTipo`): each picks its tipo's branch; a credit
 * note on a 46 is built the 46's way and repeats the retention (BRIEF-doctypes §4: an NC annulling 046_003 carries
 * MntNeto 100000, IVA 19000, ImptoReten 15/19/19000, MntTotal 100000). And the export print's currency format.
 */
import { describe, expect, test } from "bun:test";
import { validateXsd } from "@timbre/xsd";
import { formatCurrency, tipoItemRows, tipoTotalRows } from "../src/pdf/tipo-content.js";
import type { DocumentInput } from "../src/document/types.js";
import { computeTotals } from "../src/totals/index.js";
import { buildBranchOfTipo, buildSignedDteOfTipo, encodeLatin1 } from "../src/xml/index.js";
import { verifyTedText, verifyWithXmlCrypto } from "./support/independent-verify.js";
import { ISSUER, TIMESTAMP, cafFor, identity } from "./support/issuer-fixtures.js";

const seller = { rut: "12345678-5", razonSocial: "AGRICULTOR", giro: "Agricultura", direccion: "Parcela 7", comuna: "Chillán" };
const purchase = { tipo: 46 as const, folio: 3, fecha: "2026-06-15", issuer: ISSUER, receiver: seller, items: [{ nombre: "P1", cantidad: 1, precio: 100000, retencion: 15 }] };
const creditNote = { ...purchase, tipo: 61 as const, folio: 1, referencias: [{ tipoDoc: 46, folio: 3, fecha: "2026-06-15", codigo: 1 as const, razon: "Anula" }] };
const sign = (input: object) => {
  const as = input as DocumentInput;
  return buildSignedDteOfTipo({ input: as, totals: computeTotals({ ...as, tipo: 33 }), caf: cafFor(as.tipo), identity, timestamp: TIMESTAMP });
};

describe("buildSignedDteOfTipo", () => {
  test("a 61 on a 46 repeats the retention: XSD-valid Documento, signature and TED verify", async () => {
    const signed = sign(creditNote);
    expect(signed.documentId).toBe("T61F1");
    expect(signed.xml).toContain("<TipoDTE>61</TipoDTE>");
    expect(signed.xml).toContain("<MntNeto>100000</MntNeto><TasaIVA>19</TasaIVA><IVA>19000</IVA><ImptoReten><TipoImp>15</TipoImp><TasaImp>19</TasaImp><MontoImp>19000</MontoImp></ImptoReten><MntTotal>100000</MntTotal>");
    expect((await validateXsd(encodeLatin1(signed.xml), "DTE")).errors).toEqual([]);
    expect(verifyWithXmlCrypto(signed.xml)).toBe(true);
    expect(verifyTedText(signed.ted, cafFor(61).publicKey)).toBe(true);
  });
  test("a 61 on a 33 stays a classic note (no retention)", () => {
    const classic = { ...creditNote, items: [{ nombre: "P1", cantidad: 1, precio: 100000 }], referencias: [{ ...creditNote.referencias[0], tipoDoc: 33 }] };
    const signed = sign(classic);
    expect(signed.xml).not.toContain("<ImptoReten>");
    expect(signed.xml).toContain("<MntTotal>119000</MntTotal>");
  });
  test("what it returns is only the signed DTE (a thread posts it back)", () => {
    expect(Object.keys(sign(purchase)).sort()).toEqual(["documentId", "envelopeC14n", "ted", "xml"]);
  });
});

describe("buildBranchOfTipo", () => {
  test("the unsigned branch of each tipo", () => {
    expect(buildBranchOfTipo(purchase, computeTotals({ ...purchase, tipo: 33 } as DocumentInput))).toStartWith('<Documento ID="T46F3"><Encabezado><IdDoc><TipoDTE>46</TipoDTE>');
    const liquidation = { tipo: 43 as const, folio: 1, fecha: "2026-06-15", issuer: ISSUER, receiver: seller, documentos: [{ tipoDocLiq: 33, nombre: "Ventas", monto: 1000 }] };
    expect(buildBranchOfTipo(liquidation, computeTotals({ tipo: 33, items: [] }))).toStartWith('<Liquidacion ID="T43F1">');
    expect(() => buildBranchOfTipo({ ...liquidation, documentos: [] }, computeTotals({ tipo: 33, items: [] }))).toThrow();
  });
});

describe("printing an export's amounts", () => {
  test("in its currency, with its decimals: 2 at least, 0 for currencies without minor units", () => {
    expect(formatCurrency("112517.5", "FRANCO SZ")).toBe("FRANCO SZ 112.517,50");
    expect(formatCurrency("103.4125", "DOLAR USA")).toBe("DOLAR USA 103,4125");
    expect(formatCurrency("1500", "YEN")).toBe("YEN 1.500");
  });
  test("a 46's totals show each retention by name and rate, negative; classic tipos are not this file's", () => {
    const rows = tipoTotalRows({ ...purchase, items: [{ nombre: "Trigo", cantidad: 2, precio: 5000, retencion: 34 }] } as unknown as DocumentInput);
    expect(rows).toEqual([
      ["Monto neto", "$ 10.000", false], ["IVA 19 %", "$ 1.900", false], ["IVA retenido trigo (4 %)", "-$ 400", false],
      ["IVA no retenido", "$ 1.500", false], ["TOTAL", "$ 11.500", true],
    ]);
    expect(tipoTotalRows({ ...purchase, tipo: 33 } as unknown as DocumentInput)).toBeNull();
    expect(tipoItemRows({ ...purchase, tipo: 33 } as unknown as DocumentInput)).toBeNull();
  });
});

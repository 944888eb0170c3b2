/**
 * The factura de compra (46) end to end in core: LibreDTE's published fixtures 046_001–005 as `Documento` XML valid
 * against the SII's XSD (alone and in an EnvioDTE), signatures verified by two independent libraries and our
 * verifier, the TED with the CAF key; and the refusals the issue names.
 */
import { describe, expect, test } from "bun:test";
import { validateXsd } from "@timbre/xsd";
import type { PurchaseDocumentInput } from "../src/document/purchase-document.js";
import { verifyDte } from "../src/signature/index.js";
import { buildEnvelope, buildSignedPurchase, encodeLatin1, validatePurchaseDocument } from "../src/xml/index.js";
import { cutDtes, verifyTedText, verifyWithXmlCrypto, verifyWithXmldsigjs } from "./support/independent-verify.js";
import { ISSUER, ISSUER_RUT, SENDER_RUT, TIMESTAMP, cafFor, identity } from "./support/issuer-fixtures.js";

const seller = { rut: "12345678-5", razonSocial: "AGRICULTOR", giro: "Agricultura", direccion: "Parcela 7", comuna: "Chillán" };
const base = { tipo: 46 as const, fecha: "2026-06-15", issuer: ISSUER, receiver: seller, formaPago: 1 as const };

const FIXTURES: [string, PurchaseDocumentInput, string[]][] = [
  ["046_001", { ...base, folio: 1, items: [{ nombre: "P1", cantidad: 1, precio: 45000, retencion: null }] },
    ["<MntNeto>45000</MntNeto>", "<IVA>8550</IVA>", "<MntTotal>53550</MntTotal>"]],
  ["046_002", { ...base, folio: 2, items: [{ nombre: "P1", cantidad: 1, precio: 45000, exento: true }] },
    ["<MntExe>45000</MntExe>", "<MntTotal>45000</MntTotal>"]],
  ["046_003", { ...base, folio: 3, items: [{ nombre: "P1", cantidad: 1, precio: 100000, retencion: 15 }] },
    ["<ImptoReten><TipoImp>15</TipoImp><TasaImp>19</TasaImp><MontoImp>19000</MontoImp></ImptoReten><MntTotal>100000</MntTotal>",
      "<Retenedor><IndAgente>R</IndAgente></Retenedor>"]],
  ["046_004", { ...base, folio: 4, items: [{ nombre: "Trigo", cantidad: 2, unidad: "Kg", precio: 5000, codigo: "INT1", retencion: 34 }] },
    ["<ImptoReten><TipoImp>34</TipoImp><TasaImp>4</TasaImp><MontoImp>400</MontoImp></ImptoReten><IVANoRet>1500</IVANoRet><MntTotal>11500</MntTotal>"]],
  ["046_005", { ...base, folio: 5, items: [{ nombre: "Servicio cloud", cantidad: 1, precio: 123973 }] },
    ["<IVA>23555</IVA>", "<MontoImp>23555</MontoImp>", "<MntTotal>123973</MntTotal>"]],
];

const build = (input: PurchaseDocumentInput) => buildSignedPurchase({ input, caf: cafFor(46), identity, timestamp: TIMESTAMP });

describe.each(FIXTURES)("%s", (_, input, expected) => {
  const signed = build(input);
  test("carries LibreDTE's expected totals", () => {
    for (const text of expected) expect(signed.xml).toContain(text);
  });
  test("is valid against DTE_v10.xsd and verifies (xmldsigjs, xml-crypto, ours; TED with the CAF key)", async () => {
    expect((await validateXsd(encodeLatin1(signed.xml), "DTE")).errors).toEqual([]);
    expect(await verifyWithXmldsigjs(signed.xml)).toBe(true);
    expect(verifyWithXmlCrypto(signed.xml)).toBe(true);
    expect(verifyDte(signed.xml).errors).toEqual([]);
    expect(verifyTedText(signed.ted, cafFor(46).publicKey)).toBe(true);
  });
});

test("an EnvioDTE of all five is valid and verifies in context", async () => {
  const envelope = buildEnvelope({
    kind: "EnvioDTE", rutEmisor: ISSUER_RUT, rutEnvia: SENDER_RUT, resolution: { numero: 0, fecha: "2014-08-22" },
    dtes: FIXTURES.map(([, input]) => build(input)), identity, timestamp: TIMESTAMP,
  });
  expect((await validateXsd(encodeLatin1(envelope), "EnvioDTE")).errors).toEqual([]);
  expect(await verifyWithXmldsigjs(envelope)).toBe(true);
  for (const dte of cutDtes(envelope)) expect(await verifyWithXmldsigjs(dte)).toBe(true);
});

test("refusals: gross prices, unknown retention codes, retention on exempt lines, the seller's address", () => {
  const issues = validatePurchaseDocument({
    ...base,
    folio: 9,
    receiver: { rut: "12345678-5", razonSocial: "AGRICULTOR" },
    preciosBrutos: true,
    items: [{ nombre: "A", cantidad: 1, precio: 10, retencion: 99 }, { nombre: "B", cantidad: 1, precio: 10, exento: true, retencion: 15 }],
  } as PurchaseDocumentInput).map((i) => `${i.path}:${i.reason}`);
  expect(issues).toEqual([
    "receptor.giro:required",
    "receptor.direccion:required",
    "receptor.comuna:required",
    "precios_brutos:not_allowed",
    "items[0].retencion:enum",
    "items[1].retencion:not_allowed",
  ]);
});

/**
 * End-to-end proof for every tipo: build → stamp → sign → envelope, then
 * (a) XSD-valid against the official schemas (EnvioDTE_v10 / EnvioBOLETA_v11, bare DTEs against DTE_v10);
 * (b) every DTE signature (cut out of the envelope text) and the SetDTE signature (in context) verify with
 *     xmldsigjs and with xml-crypto; (c) every TED FRMT verifies with node:crypto against the CAF public key;
 * (d) our canonical Documento equals xml-crypto's and xmldsigjs's C14N of the parsed DTE.
 */
import { describe, expect, test } from "bun:test";
import { validateXsd } from "@timbre/xsd";
import { isReceipt, type DocumentInput } from "../src/document/types.js";
import { computeTotals } from "../src/totals/index.js";
import { buildEnvelope, encodeLatin1 } from "../src/xml/index.js";
import { renderSignedDte, type RenderedSignedDte } from "../src/xml/render-signed-dte.js";
import { CASES } from "./support/document-cases.js";
import {
  c14nWithXmlCrypto,
  c14nWithXmldsigjs,
  cutDtes,
  verifyTedText,
  verifyWithXmlCrypto,
  verifyWithXmldsigjs,
} from "./support/independent-verify.js";
import { cafFor, SAMPLE_RESOLUTION, SAMPLE_TIMESTAMP, sampleIdentity } from "./support/signing-fixtures.js";

const sign = (input: DocumentInput): RenderedSignedDte =>
  renderSignedDte({ input, totals: computeTotals(input), caf: cafFor(input.tipo), identity: sampleIdentity(), timestamp: SAMPLE_TIMESTAMP });

const signed = Object.fromEntries(Object.entries(CASES).map(([name, input]) => [name, sign(input)]));
const facturas = Object.keys(CASES).filter((k) => !isReceipt(CASES[k]?.tipo ?? 0));
const boletas = Object.keys(CASES).filter((k) => isReceipt(CASES[k]?.tipo ?? 0));

function envelope(kind: "EnvioDTE" | "EnvioBOLETA", names: string[]): string {
  const dtes = names.map((n) => signed[n]?.xml ?? "");
  return buildEnvelope({ kind, rutEmisor: "76192083-9", rutEnvia: "11111111-1", resolution: SAMPLE_RESOLUTION, dtes, identity: sampleIdentity(), timestamp: SAMPLE_TIMESTAMP });
}

const envelopes = { EnvioDTE: envelope("EnvioDTE", facturas), EnvioBOLETA: envelope("EnvioBOLETA", boletas) };

describe.each(Object.keys(CASES))("%s", (name) => {
  const dte = signed[name] as RenderedSignedDte;
  const input = CASES[name] as DocumentInput;

  test("(a) a bare DTE of 33/34/52/56/61 is valid against DTE_v10.xsd", async () => {
    if (isReceipt(input.tipo)) return; // boletas validate only inside EnvioBOLETA (below)
    const result = await validateXsd(encodeLatin1(dte.xml), "DTE");
    expect(result.errors).toEqual([]);
  });

  test("(b) the stand-alone DTE signature verifies with xmldsigjs and xml-crypto", async () => {
    expect(await verifyWithXmldsigjs(dte.xml)).toBe(true);
    expect(verifyWithXmlCrypto(dte.xml)).toBe(true);
  });

  test("(c) the TED FRMT verifies against the CAF public key", () => {
    expect(verifyTedText(dte.ted, cafFor(input.tipo).publicKey)).toBe(true);
    expect(dte.xml).toContain(dte.ted);
  });

  test("(d) canonical Documento equals xml-crypto's and xmldsigjs's C14N", () => {
    expect(c14nWithXmlCrypto(dte.xml, "Documento")).toBe(dte.canonicalDocumento);
    expect(c14nWithXmldsigjs(dte.xml, "Documento")).toBe(dte.canonicalDocumento);
  });
});

describe("guía 52 variants beyond the cases are valid against DTE_v10.xsd and verify", () => {
  const guia = CASES["52 guía venta"] as DocumentInput;
  const variants: Record<string, DocumentInput> = {
    "gross prices, global discount, FmaPago, despacho 3, only a driver": {
      ...guia, folio: 31, preciosBrutos: true, descuentoGlobalPorcentaje: "7.5", formaPago: 1,
      traslado: { indicador: 2, despacho: 3 }, transporte: { chofer: { rut: "11111111-1", nombre: "Pedro Pérez" } },
    },
    "devolución with only exempt lines: MntExe and MntTotal": {
      ...guia, folio: 32, traslado: { indicador: 7 }, transporte: { patente: "BBCL45", comunaDestino: "Ñuñoa" },
      items: [{ nombre: "Libro devuelto", cantidad: 2, precio: 12990, exento: true }],
    },
  };
  test.each(Object.keys(variants))("%s", async (name) => {
    const input = variants[name] as DocumentInput;
    const dte = sign(input);
    const result = await validateXsd(encodeLatin1(dte.xml), "DTE");
    expect(result.errors).toEqual([]);
    expect(await verifyWithXmldsigjs(dte.xml)).toBe(true);
    expect(verifyWithXmlCrypto(dte.xml)).toBe(true);
  });
});

describe.each(["EnvioDTE", "EnvioBOLETA"] as const)("%s envelope", (kind) => {
  const xml = envelopes[kind];

  test("(a) validates against the official XSD", async () => {
    const result = await validateXsd(encodeLatin1(xml), kind);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test("(b) SetDTE signature verifies in context with xmldsigjs and xml-crypto", async () => {
    expect(await verifyWithXmldsigjs(xml)).toBe(true);
    expect(verifyWithXmlCrypto(xml)).toBe(true);
  });

  test("(b) every DTE cut out of the envelope is byte-identical and verifies stand-alone", async () => {
    const cut = cutDtes(xml);
    const names = kind === "EnvioDTE" ? facturas : boletas;
    expect(cut.length).toBe(names.length);
    for (const [i, text] of cut.entries()) {
      expect(signed[names[i] ?? ""]?.xml.endsWith(text)).toBe(true);
      expect(await verifyWithXmldsigjs(text)).toBe(true);
      expect(verifyWithXmlCrypto(text)).toBe(true);
    }
  });

  test("Caratula counts each tipo", () => {
    const subtotals = [...xml.matchAll(/<SubTotDTE><TpoDTE>(\d+)<\/TpoDTE><NroDTE>(\d+)<\/NroDTE><\/SubTotDTE>/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(subtotals).toEqual(kind === "EnvioDTE" ? ["33:3", "34:1", "52:2", "56:1", "61:3"] : ["39:2", "41:1"]);
  });
});

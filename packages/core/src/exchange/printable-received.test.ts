import { expect, test } from "bun:test";
import { ISSUER, SAMPLE_T33, SAMPLE_TIMESTAMP, sampleIdentity } from "../../test/support/signing-fixtures.js";
import { issueCaf } from "../caf/issue-caf.js";
import { generateAuthorityKey } from "../testing/generate-authority-key.js";
import { computeTotals } from "../totals/index.js";
import { buildSignedDte } from "../xml/build-signed-dte.js";
import { printableReceived } from "./printable-received.js";

const authority = generateAuthorityKey(100);
const caf = issueCaf({ authority, rut: ISSUER.rut, razonSocial: ISSUER.razonSocial, tipo: 33, desde: 1, hasta: 50, fechaAutorizacion: "2026-01-01" }).caf;
const input = { ...SAMPLE_T33, folio: 7, receiver: { ...SAMPLE_T33.receiver, rut: "77777777-7", razonSocial: "Comprador SpA" } };
const totals = computeTotals(input);
const signed = buildSignedDte({ input, totals, caf, identity: sampleIdentity(), timestamp: SAMPLE_TIMESTAMP });

test("a received DTE reads back as what was signed: parties, lines, the issuer's amounts, its TED", () => {
  const printable = printableReceived(signed.xml);
  expect(printable.input).toMatchObject({ tipo: 33, folio: 7, fecha: input.fecha, issuer: { rut: ISSUER.rut, razonSocial: ISSUER.razonSocial }, receiver: { rut: "77777777-7", razonSocial: "Comprador SpA" } });
  expect(printable.input.items.map((i) => i.nombre)).toEqual(input.items.map((i) => i.nombre));
  const { montoNeto, montoExento, montoIva, montoTotal } = totals;
  expect(printable.totals).toMatchObject({ montoNeto, montoExento, montoIva, montoTotal });
  expect(printable.totals.lines.map((l) => [l.montoItem, l.exento])).toEqual(totals.lines.map((l) => [l.montoItem, l.exento]));
  expect(printable.ted).toBe(signed.ted);
  expect(printable.resolution).toBeNull();
});

test("an indented TED is flattened for the barcode; a text without a Documento is refused", () => {
  const indented = signed.xml.replace("<DD>", "\n  <DD>\n    ");
  expect(printableReceived(indented).ted).toBe(signed.ted);
  expect(() => printableReceived("<DTE version=\"1.0\"><Otro/></DTE>")).toThrow("no Documento");
});

import { describe, expect, test } from "bun:test";
import { checkDocument, type DocumentCheckContext } from "../src/sandbox/check-document.js";
import type { DteFacts } from "../src/sandbox/read-envelope.js";
import { DocumentRegistry } from "../src/sandbox/registry.js";
import { createSandbox } from "../src/sandbox/index.js";

const RUT = "76192083-9";
const DAY = "2026-11-24";

/** The `<CAF>` element of a sandbox-issued authorisation file, as a TED carries it. */
function cafElement(authorisationXml: string): string {
  const found = /<CAF version="1\.0">[\s\S]*<\/CAF>/.exec(authorisationXml);
  if (!found) throw new Error("no CAF element");
  return found[0];
}

const facts = (cafXml: string, folio: number): DteFacts => ({
  text: "",
  tipo: 33,
  folio,
  fchEmis: DAY,
  rutEmisor: RUT,
  rznSoc: "EMPRESA DE PRUEBA SANDBOX",
  acteco: ["620200"],
  rutRecep: "96790240-3",
  rznSocRecep: "Cliente",
  mntTotal: 1190,
  cafXml,
  fingerprint: `f${folio}`,
  references: [],
  tmstFirma: `${DAY}T10:00:00`,
});

describe("the sandbox's CAF checks, whose verdict is kept per CAF text and set of trusted authorities", () => {
  const issuer = createSandbox({ idk: 9101 });
  const stranger = createSandbox({ idk: 9102 });
  const caf = cafElement(issuer.issueCaf({ rut: RUT, tipo: 33, desde: 1, hasta: 5, fechaAutorizacion: DAY }).xml);
  const ctx = (authorities: DocumentCheckContext["authorities"]): DocumentCheckContext => ({
    authorities,
    registry: new DocumentRegistry(),
    tedValid: true,
    rejectionCode: "HED-3-305",
    remarkCode: "HED-1-863",
  });

  test("the same CAF is authentic for its authority and not for another, in any order, every time", () => {
    const trusting = ctx([issuer.authorityKey]);
    const distrusting = ctx([stranger.authorityKey]);
    for (let round = 0; round < 2; round++) {
      expect(checkDocument(facts(caf, 1), trusting)).toMatchObject({ estado: "DOK", errors: [] });
      expect(checkDocument(facts(caf, 2), distrusting).errors.map((e) => e.codigo)).toEqual(["CAF-3-516"]);
    }
  });

  test("what depends on the document is checked for each one: its folio against the cached CAF's range", () => {
    const trusting = ctx([issuer.authorityKey]);
    expect(checkDocument(facts(caf, 5), trusting).estado).toBe("DOK");
    expect(checkDocument(facts(caf, 6), trusting).errors.map((e) => e.codigo)).toEqual(["CAF-3-518"]);
  });

  test("an unreadable CAF is CAF-3-516, the second time too", () => {
    const trusting = ctx([issuer.authorityKey]);
    const broken = caf.replace(/<RNG>[\s\S]*<\/RNG>/, "");
    expect(checkDocument(facts(broken, 1), trusting).errors.map((e) => e.codigo)).toEqual(["CAF-3-516"]);
    expect(checkDocument(facts(broken, 1), trusting).errors.map((e) => e.codigo)).toEqual(["CAF-3-516"]);
  });
});

describe("the unidentified consumer 66666666-6 receives boletas and the notes that modify them, nothing else", () => {
  const sandbox = createSandbox({ idk: 9103 });
  const cafFor = (tipo: number) => cafElement(sandbox.issueCaf({ rut: RUT, tipo, desde: 1, hasta: 50, fechaAutorizacion: DAY }).xml);
  // The referenced documents (folio 7) are held by the SII: only the receiver is judged here.
  const ctx: DocumentCheckContext = {
    authorities: [sandbox.authorityKey], registry: new DocumentRegistry(), tedValid: true, rejectionCode: "HED-3-305", remarkCode: "HED-1-863",
    received: () => ({ mntTotal: 1190 }),
  };
  const toConsumer = (tipo: number, references: DteFacts["references"] = []): DteFacts =>
    ({ ...facts(cafFor(tipo), 1), tipo, rutRecep: "66666666-6", rznSocRecep: "Consumidor final", references });
  const reference = (tipo: string): DteFacts["references"][number] => ({ tipo, folio: "7", codRef: 1, rutOtr: null, fecha: DAY });

  test("a factura, a guía or a note to a factura → RCH REC-3-106 (the sandbox's own code, described)", () => {
    for (const tipo of [33, 34, 52]) {
      const outcome = checkDocument(toConsumer(tipo), ctx);
      expect(outcome.estado).toBe("RCH");
      expect(outcome.errors).toEqual([{ codigo: "REC-3-106", descripcion: expect.stringContaining("66666666-6"), nivel: 3 }]);
    }
    for (const tipo of [56, 61]) expect(checkDocument(toConsumer(tipo, [reference("33")]), ctx).errors.map((e) => e.codigo)).toEqual(["REC-3-106"]);
  });

  test("a boleta, or a note that modifies a boleta → DOK; another receiver on a factura → DOK", () => {
    for (const tipo of [39, 41]) expect(checkDocument(toConsumer(tipo), ctx)).toMatchObject({ estado: "DOK", errors: [] });
    for (const tipo of [56, 61]) expect(checkDocument(toConsumer(tipo, [reference("39")]), ctx)).toMatchObject({ estado: "DOK", errors: [] });
    expect(checkDocument({ ...toConsumer(33), rutRecep: "96790240-3" }, ctx).estado).toBe("DOK");
  });
});

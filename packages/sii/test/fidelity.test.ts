// Issue 46: the sandbox refuses what the SII refuses, with the SII's outcome and code — by direct upload, the path
// of SDK and core-only users (the server's side: apps/server/src/modules/dte/sii-fidelity.test.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateTestCertificate } from "@timbre/core/testing";
import { EMISOR, HOLDER, envelopeBytes, rawEnvelopeBytes, startWorld, TODAY, type World } from "./support/world.js";

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.stop());

async function send(spec: Parameters<typeof envelopeBytes>[1], kind: "EnvioDTE" | "EnvioBOLETA" = "EnvioDTE", on = world) {
  const xml = await envelopeBytes(on, { kind, ...spec });
  const { trackId, channel } = await on.client.uploadEnvelope({ kind, xml, rutEmisor: EMISOR });
  const status = await on.client.getUploadStatus({ trackId, rutEmisor: EMISOR, kind, channel });
  const record = on.sandbox.envelope(trackId);
  return { status, record, codes: record?.documents.map((d) => d.errors.map((e) => e.codigo)) ?? [] };
}

function shiftDate(date: string, days: number, months = 0): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const note = (tipoDoc: number | string, folio: number, codigo?: 1 | 2 | 3, fecha = TODAY) => ({ tipoDoc, folio, fecha, ...(codigo ? { codigo } : {}) });

describe("references (formato DTE v2.2, E. Referencias; codes observed from the SII)", () => {
  test("1. a 61 correcting amounts of a 33 the SII never received → RCH REF-3-750; of one it accepted → ACEPTADO", async () => {
    const unknown = await send({ docs: [{ tipo: 61, folio: 1, precio: 100, referencias: [note(33, 900, 3)] }] });
    expect(unknown.status).toMatchObject({ estado: "EPR", state: "RECHAZADO" });
    expect(unknown.codes).toEqual([["REF-3-750"]]);
    expect((await send({ docs: [{ folio: 901 }] })).status.state).toBe("ACEPTADO");
    const known = await send({ docs: [{ tipo: 61, folio: 2, precio: 100, referencias: [note(33, 901, 3)] }] });
    expect(known.status.state).toBe("ACEPTADO");
  });

  test("a note to a document rejected by the SII → REF-3-750; to a factura earlier in the same envelope → accepted", async () => {
    const rejected = await send({ docs: [{ folio: 902, receptor: "Cliente [sandbox:rechazo]" }] });
    expect(rejected.status.state).toBe("RECHAZADO");
    expect((await send({ docs: [{ tipo: 61, folio: 3, precio: 100, referencias: [note(33, 902, 3)] }] })).codes).toEqual([["REF-3-750"]]);
    const together = await send({ docs: [{ folio: 903 }, { tipo: 61, folio: 4, precio: 100, referencias: [note(33, 903, 3)] }] });
    expect(together.codes).toEqual([[], []]);
  });

  test("REF-2-780 (reparo): an annulment whose total differs from the annulled document's; an equal one is clean", async () => {
    expect((await send({ docs: [{ folio: 904, precio: 1190 }] })).status.state).toBe("ACEPTADO");
    const differs = await send({ docs: [{ tipo: 61, folio: 5, precio: 500, referencias: [note(33, 904, 1)] }] });
    expect(differs.status).toMatchObject({ estado: "EPR", state: "ACEPTADO_CON_REPAROS" });
    expect(differs.codes).toEqual([["REF-2-780"]]);
    const equal = await send({ docs: [{ tipo: 61, folio: 6, precio: 1190, referencias: [note(33, 904, 1)] }] });
    expect(equal.status.state).toBe("ACEPTADO");
  });

  test("7. uploaded directly: a 61 without Referencia → REF-3-415, without CodRef → REF-3-758, CodRef 1 with two documents → SBX-3-2", async () => {
    await send({ docs: [{ folio: 905 }, { folio: 906 }] });
    expect((await send({ docs: [{ tipo: 61, folio: 7, unchecked: true }] })).codes).toEqual([["REF-3-415"]]);
    expect((await send({ docs: [{ tipo: 61, folio: 8, unchecked: true, referencias: [note(33, 905)] }] })).codes).toEqual([["REF-3-758"]]);
    const two = await send({ docs: [{ tipo: 61, folio: 9, unchecked: true, referencias: [note(33, 905, 1), note(33, 906, 1)] }] });
    expect(two.status.state).toBe("RECHAZADO");
    expect(two.codes[0]).toContain("SBX-3-2");
  });

  test("6. uploaded directly: TpoDocRef 5 or 999, FchRef 2001-01-01 → SBX-3-4; letters (SET) and 801 pass", async () => {
    for (const [folio, ref] of [[911, note(5, 1)], [912, note(999, 1)], [913, note(33, 905, undefined, "2001-01-01")]] as const) {
      expect((await send({ docs: [{ folio, unchecked: true, referencias: [ref] }] })).codes).toEqual([["SBX-3-4"]]);
    }
    expect((await send({ docs: [{ folio: 990, referencias: [note("SET", 1), note(801, 77)] }] })).codes).toEqual([[]]);
  });
});

describe("the carátula's resolution (CRT-3-19 Fecha/Numero Resolucion Invalido)", () => {
  test("2. certificación: NroResol 999, or a FchResol in the future → RCT CRT-3-19; NroResol 0 of a past date → accepted", async () => {
    const production = await send({ docs: [{ folio: 100 }], resolution: { numero: 999, fecha: "2014-08-22" } });
    expect(production.status).toMatchObject({ estado: "RCT", state: "RECHAZADO" });
    expect(production.record?.envelopeErrors.map((e) => e.codigo)).toEqual(["CRT-3-19"]);
    const future = await send({ docs: [{ folio: 100 }], resolution: { numero: 0, fecha: "2030-01-01" } });
    expect(future.record?.envelopeErrors.map((e) => e.codigo)).toEqual(["CRT-3-19"]);
    expect((await send({ docs: [{ folio: 100 }] })).status.state).toBe("ACEPTADO");
  });

  test("a sandbox standing for producción refuses NroResol 0 and takes the business's number", async () => {
    const palena = await startWorld({ environment: "produccion" });
    try {
      const zero = await send({ docs: [{ folio: 1 }] }, "EnvioDTE", palena);
      expect(zero.record?.envelopeErrors.map((e) => e.codigo)).toEqual(["CRT-3-19"]);
      expect((await send({ docs: [{ folio: 1 }], resolution: { numero: 80, fecha: "2014-08-22" } }, "EnvioDTE", palena)).status.state).toBe("ACEPTADO");
    } finally {
      palena.stop();
    }
  });
});

describe("the parties", () => {
  test("3. a razón social other than the CAF's → ACEPTADO_CON_REPAROS HED-1-863 (the first 40 characters count, as in RS)", async () => {
    const renamed = await send({ docs: [{ folio: 200, issuer: { razonSocial: "SASCO Servicios SpA" } }] });
    expect(renamed.status).toMatchObject({ estado: "EPR", state: "ACEPTADO_CON_REPAROS" });
    expect(renamed.codes).toEqual([["HED-1-863"]]);
    expect((await send({ docs: [{ folio: 201, issuer: { razonSocial: "  sasco   SPA " } }] })).codes).toEqual([[]]);
    expect((await send({ docs: [{ folio: 202, issuer: { razonSocial: "SASCÓ SpA" } }] })).codes).toEqual([[]]);
  });

  test("4. acteco 999999 (not in the SII's list) → RCH HED-3-861", async () => {
    const { status, codes } = await send({ docs: [{ folio: 210, issuer: { acteco: [620200, 999999] } }] });
    expect(status.state).toBe("RECHAZADO");
    expect(codes).toEqual([["HED-3-861"]]);
  });

  test("5. uploaded directly: receptor RUT 1-9 → RCH SBX-3-3 (the manual's range 100.000–99.999.999)", async () => {
    const { status, codes } = await send({ docs: [{ folio: 220, receptorRut: "1-9", unchecked: true }] });
    expect(status.state).toBe("RECHAZADO");
    expect(codes).toEqual([["SBX-3-3"]]);
  });
});

describe("folios, CAFs, certificates and channels", () => {
  test("9. one envelope with 33/N twice (different IDs) → the first accepted, the second DTE-3-101", async () => {
    const xml = rawEnvelopeBytes(world, [{ folio: 300, precio: 1000, id: "T33F300" }, { folio: 300, precio: 2000, id: "T33F300B" }]);
    const { trackId } = await world.client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: EMISOR });
    const status = await world.client.getUploadStatus({ trackId, rutEmisor: EMISOR, kind: "EnvioDTE" });
    const codes = world.sandbox.envelope(trackId)?.documents.map((d) => d.errors.map((e) => e.codigo));
    expect(status.counts).toEqual([expect.objectContaining({ tipo: 33, informados: 2, aceptados: 1, rechazados: 1 })]);
    expect(codes).toEqual([[], ["DTE-3-101"]]);
    expect(world.sandbox.documents().filter((d) => d.tipo === 33 && d.folio === 300).map((d) => d.mntTotal)).toEqual([1190]);
  });

  test("10. CAF expiry is judged at the signature (TmstFirma): a back-dated FchEmis under an expired CAF → CAF-3-517", async () => {
    const authorised = shiftDate(TODAY, -2, -6); // expired two days ago (6 months)
    const caf = world.sandbox.issueCaf({ rut: EMISOR, tipo: 33, desde: 5000, hasta: 5010, fechaAutorizacion: authorised, razonSocial: "SASCO SpA" }).caf;
    const backDated = await send({ docs: [{ folio: 5000, caf, fecha: shiftDate(authorised, 10) }] });
    expect(backDated.status.state).toBe("RECHAZADO");
    expect(backDated.codes).toEqual([["CAF-3-517"]]);
  });

  test("10. an expired signing certificate: no token (GetTokenFromSeed -3) and its envelope refused (STATUS 8)", async () => {
    const expired = await generateTestCertificate({
      rut: HOLDER, name: "Persona Vencida", validFrom: new Date(Date.now() - 400 * 86_400_000), validTo: new Date(Date.now() - 86_400_000), password: "x",
    });
    const identity = { privateKey: expired.privateKey, certificateDer: expired.certificateDer, holderRut: HOLDER };
    const client = world.newClient({ identity });
    await expect(client.uploadEnvelope({ kind: "EnvioDTE", xml: await envelopeBytes(world, { docs: [{ folio: 400 }] }), rutEmisor: EMISOR }))
      .rejects.toMatchObject({ name: "SiiAuthError", status: "-3" });
    // signed by the expired certificate, sent with a valid session: refused as a signature problem
    const signedByExpired = await envelopeBytes({ ...world, identity }, { docs: [{ folio: 401 }] });
    await expect(world.client.uploadEnvelope({ kind: "EnvioDTE", xml: signedByExpired, rutEmisor: EMISOR })).rejects.toMatchObject({ status: "8" });
  });

  test("10. an EnvioDTE through the boleta REST upload → RSC (that service takes EnvioBOLETA only)", async () => {
    const xml = await envelopeBytes(world, { docs: [{ folio: 500 }] });
    const { trackId, channel } = await world.client.uploadEnvelope({ kind: "EnvioBOLETA", xml, rutEmisor: EMISOR });
    expect(channel).toBe("boleta-rest");
    const status = await world.client.getUploadStatus({ trackId, rutEmisor: EMISOR, kind: "EnvioBOLETA", channel });
    expect(status).toMatchObject({ estado: "RSC", state: "RECHAZADO" });
    expect(world.sandbox.documents().some((d) => d.tipo === 33 && d.folio === 500)).toBe(false);
  });
});

describe("QueryEstUp stays faithful: the state's words, the reasons kept for the result mail", () => {
  test("an RCT's GLOSA is the state's description; the codes and reasons are in the sandbox's record", async () => {
    const { status, record } = await send({ docs: [{ folio: 600 }], rutReceptor: "77777777-7" });
    expect(status.glosa).toBe("Rechazado por error en carátula");
    expect(record?.envelopeErrors).toEqual([{ codigo: "CRT-3-18", descripcion: expect.stringContaining("RutReceptor 77777777-7") }]);
  });
});

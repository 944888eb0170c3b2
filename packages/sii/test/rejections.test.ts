import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { EMISOR, envelopeBytes, startWorld, TODAY, type World } from "./support/world.js";

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.stop());

function monthsBefore(date: string, months: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString().slice(0, 10);
}

async function send(spec: Parameters<typeof envelopeBytes>[1], kind: "EnvioDTE" | "EnvioBOLETA" = "EnvioDTE") {
  const xml = await envelopeBytes(world, { kind, ...spec });
  const { trackId, channel } = await world.client.uploadEnvelope({ kind, xml, rutEmisor: EMISOR });
  const status = await world.client.getUploadStatus({ trackId, rutEmisor: EMISOR, kind, channel });
  return { trackId, status, record: world.sandbox.envelope(trackId) };
}

const codesOf = (record: { documents: Array<{ errors: Array<{ codigo: string }> }> } | undefined) =>
  record?.documents.flatMap((d) => d.errors.map((e) => e.codigo)) ?? [];

describe("the sandbox rejects what the SII rejects", () => {
  test("a tampered envelope (Carátula changed after signing) → STATUS 8 by DTEUpload, RFR by the boleta REST API", async () => {
    const tamper = (x: string) => x.replace(/<TmstFirmaEnv>([^<]*)<\/TmstFirmaEnv>/, "<TmstFirmaEnv>2020-01-01T00:00:00</TmstFirmaEnv>");
    const xml = await envelopeBytes(world, { docs: [{ folio: 10 }], mutate: tamper });
    await expect(world.client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: EMISOR })).rejects.toMatchObject({ status: "8" });
    const { status } = await send({ docs: [{ tipo: 39, folio: 10 }], mutate: tamper }, "EnvioBOLETA");
    expect(status).toMatchObject({ estado: "RFR", state: "RECHAZADO", verdict: { envelopeLevel: true } });
  });

  test("an expired CAF (FA + 6 months before FchEmis) → CAF-3-517", async () => {
    const caf = world.sandbox.issueCaf({ rut: EMISOR, tipo: 33, desde: 2000, hasta: 2010, fechaAutorizacion: monthsBefore(TODAY, 7), razonSocial: "SASCO SpA" }).caf;
    const { status, record } = await send({ docs: [{ folio: 2000, caf }] });
    expect(status).toMatchObject({ estado: "EPR", state: "RECHAZADO" });
    expect(codesOf(record)).toEqual(["CAF-3-517"]);
  });

  test("a folio outside the CAF range → CAF-3-518", async () => {
    const caf = world.sandbox.issueCaf({ rut: EMISOR, tipo: 33, desde: 3000, hasta: 3001, fechaAutorizacion: TODAY, razonSocial: "SASCO SpA" }).caf;
    // core refuses to stamp outside the range: widen the parsed range, keep the signed CAF text (RNG 3000–3001)
    const { status, record } = await send({ docs: [{ folio: 3005, caf: { ...caf, hasta: 3010 } }] });
    expect(status.state).toBe("RECHAZADO");
    expect(codesOf(record)).toEqual(["CAF-3-518"]);
  });

  test("a CAF not signed by a trusted authority → CAF-3-516", async () => {
    const other = (await import("../src/sandbox/index.js")).createSandbox({ idk: 7777 });
    const caf = other.issueCaf({ rut: EMISOR, tipo: 33, desde: 4000, hasta: 4010, fechaAutorizacion: TODAY, razonSocial: "SASCO SpA" }).caf;
    const { record } = await send({ docs: [{ folio: 4000, caf }] });
    expect(codesOf(record)).toEqual(["CAF-3-516"]);
  });

  test("a folio reused with different data → DTE-3-101; the same data again → DTE-3-100", async () => {
    const first = await send({ docs: [{ folio: 20, precio: 1000 }] });
    expect(first.status.state).toBe("ACEPTADO");
    const other = await send({ docs: [{ folio: 20, precio: 2000 }] });
    expect(other.status.state).toBe("RECHAZADO");
    expect(codesOf(other.record)).toEqual(["DTE-3-101"]);
    const again = await send({ docs: [{ folio: 20, precio: 1000 }], timestamp: "2026-01-15T10:00:01" });
    expect(codesOf(again.record)).toEqual(["DTE-3-100"]);
  });

  test("the very same file again → RPT (repetido), envelope-level: nothing of it registered, the first upload's verdict stands", async () => {
    const bytes = await envelopeBytes(world, { docs: [{ folio: 21 }] });
    const upload = () => world.client.uploadEnvelope({ kind: "EnvioDTE", xml: bytes, rutEmisor: EMISOR });
    const first = await upload();
    expect((await world.client.getUploadStatus({ trackId: first.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" })).state).toBe("ACEPTADO");
    const repeated = await upload();
    expect(repeated.trackId).not.toBe(first.trackId);
    const status = await world.client.getUploadStatus({ trackId: repeated.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" });
    expect(status).toMatchObject({ estado: "RPT", state: "RECHAZADO", counts: [] });
    expect(status.verdict).toMatchObject({ envelopeLevel: true, hint: expect.stringContaining("QueryEstDte") });
    expect(world.sandbox.envelope(repeated.trackId)?.envelopeErrors[0]?.descripcion).toContain(first.trackId);
    expect(world.sandbox.documents().filter((d) => d.folio === 21 && d.tipo === 33).map((d) => d.trackId)).toEqual([first.trackId]);
  });

  test("a wrong carátula → RCT: RutReceptor not the SII (CRT-3-18), RutEnvia not the signer (SBX-3-1, the sandbox's own code)", async () => {
    const receptor = await send({ docs: [{ folio: 30 }], rutReceptor: "77777777-7" });
    expect(receptor.status).toMatchObject({ estado: "RCT", state: "RECHAZADO" });
    // QueryEstUp's GLOSA names the state only, as the SII's: the reasons are kept for the result mail
    expect(receptor.status.glosa).toBe("Rechazado por error en carátula");
    expect(receptor.record?.envelopeErrors.map((e) => e.codigo)).toEqual(["CRT-3-18"]);
    const envia = await send({ docs: [{ folio: 31 }], rutEnvia: "22222222-2" });
    expect(envia.status.estado).toBe("RCT");
    expect(envia.record?.envelopeErrors.map((e) => e.codigo)).toEqual(["SBX-3-1", "SBX-3-1"]);
    // nothing registered: the folio can be re-sent after the fix
    expect((await send({ docs: [{ folio: 30 }] })).status.state).toBe("ACEPTADO");
  });

  test("a boleta envelope-level rejection shows in detalle_rep_rech with its code", async () => {
    const { status } = await send({ docs: [{ tipo: 39, folio: 40 }], rutReceptor: "77777777-7" }, "EnvioBOLETA");
    expect(status.estado).toBe("RCT");
    expect(status.documents?.[0]?.errors[0]?.codigo).toBe("CRT-3-18");
  });
});

describe("crossCheck: off (the lean sandbox of the load benchmarks) still refuses bad signatures", () => {
  let lean: World;
  beforeAll(async () => {
    lean = await startWorld({ crossCheck: "off" });
  });
  afterAll(() => lean.stop());

  test("a tampered envelope → STATUS 8; an intact one → accepted", async () => {
    const tamper = (x: string) => x.replace(/<TmstFirmaEnv>([^<]*)<\/TmstFirmaEnv>/, "<TmstFirmaEnv>2020-01-01T00:00:00</TmstFirmaEnv>");
    const bad = await envelopeBytes(lean, { docs: [{ folio: 20 }], mutate: tamper });
    await expect(lean.client.uploadEnvelope({ kind: "EnvioDTE", xml: bad, rutEmisor: EMISOR })).rejects.toMatchObject({ status: "8" });
    const good = await envelopeBytes(lean, { docs: [{ folio: 21 }] });
    const { trackId } = await lean.client.uploadEnvelope({ kind: "EnvioDTE", xml: good, rutEmisor: EMISOR });
    expect(lean.sandbox.envelope(trackId)?.envelopeErrors).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { describeSiiCode } from "../src/codes/index.js";
import { EMISOR, envelopeBytes, recordingFetch, startWorld, TODAY, type World } from "./support/world.js";

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.stop());

const status = (trackId: string, kind: "EnvioDTE" | "EnvioBOLETA" = "EnvioDTE") =>
  world.client.getUploadStatus({ trackId, rutEmisor: EMISOR, kind });
const upload = async (docs: Parameters<typeof envelopeBytes>[1]["docs"], kind: "EnvioDTE" | "EnvioBOLETA" = "EnvioDTE") =>
  world.client.uploadEnvelope({ kind, xml: await envelopeBytes(world, { kind, docs }), rutEmisor: EMISOR });

describe("client ↔ sandbox over loopback HTTP: outcomes", () => {
  test("seed (12 digits, single use) and token", async () => {
    const seed = await world.client.getSeed();
    expect(seed).toMatch(/^\d{12}$/);
    expect(await world.client.getToken(seed)).toMatch(/^[A-Za-z0-9]{13}$/);
    await expect(world.client.getToken(seed)).rejects.toMatchObject({ name: "SiiTransientError", status: "08" });
  });

  test("EnvioDTE accepted: EPR with counts → ACEPTADO; QueryEstDte DOK, DNK, FAU, FNA", async () => {
    const sent = await upload([{ folio: 1 }]);
    expect(sent.trackId).toMatch(/^\d{10}$/);
    expect(sent.channel).toBe("dteupload");
    expect(await status(sent.trackId)).toMatchObject({
      estado: "EPR", state: "ACEPTADO", counts: [{ tipo: 33, informados: 1, aceptados: 1, rechazados: 0, reparos: 0 }],
    });
    const query = { rutEmisor: EMISOR, rutReceptor: "77777777-7", tipo: 33, folio: 1, fecha: TODAY, monto: 1416 };
    expect((await world.client.getDocumentStatus(query)).estado).toBe("DOK");
    expect((await world.client.getDocumentStatus({ ...query, monto: 1 })).estado).toBe("DNK");
    expect((await world.client.getDocumentStatus({ ...query, folio: 999 })).estado).toBe("FAU");
    expect((await world.client.getDocumentStatus({ ...query, folio: 5000 })).estado).toBe("FNA");
  });

  test("remarks: [sandbox:reparos] → EPR with REPAROS → ACEPTADO_CON_REPAROS", async () => {
    const sent = await upload([{ folio: 2, receptor: "Cliente [sandbox:reparos]" }]);
    const s = await status(sent.trackId);
    expect(s).toMatchObject({ estado: "EPR", state: "ACEPTADO_CON_REPAROS", counts: [{ aceptados: 1, reparos: 1, rechazados: 0 }] });
    expect(world.sandbox.envelope(sent.trackId)?.documents[0]?.errors[0]?.codigo).toBe("HED-1-863");
  });

  test("rejected: [sandbox:rechazo] → EPR with RECHAZADOS → RECHAZADO; the folio reads FAU", async () => {
    const sent = await upload([{ folio: 3, receptor: "Cliente [sandbox:rechazo]" }]);
    expect(await status(sent.trackId)).toMatchObject({ estado: "EPR", state: "RECHAZADO", counts: [{ rechazados: 1 }] });
    const doc = world.sandbox.envelope(sent.trackId)?.documents[0];
    expect(doc?.errors[0]?.codigo).toBe("HED-3-305");
    const fau = await world.client.getDocumentStatus({ rutEmisor: EMISOR, rutReceptor: "77777777-7", tipo: 33, folio: 3, fecha: TODAY, monto: 1416 });
    expect(fau.estado).toBe("FAU");
  });

  test("mixed envelope: counts mixed → ENVIADO, verdict unresolved (resolve per document)", async () => {
    const sent = await upload([{ folio: 4 }, { folio: 5, receptor: "X [sandbox:rechazo=DTE-3-601]" }]);
    const s = await status(sent.trackId);
    expect(s.counts).toEqual([{ tipo: 33, informados: 2, aceptados: 1, rechazados: 1, reparos: 0 }]);
    expect(s.state).toBe("ENVIADO");
    expect(s.verdict).toMatchObject({ kind: "unresolved", reason: "mixed_counts" });
  });

  test("processing steps REC → SOK → CRT → FOK → EPR with a step delay and an injected clock", async () => {
    let now = Date.now();
    const slow = await startWorld({ stepMs: 1000, now: () => new Date(now) });
    try {
      const sent = await slow.client.uploadEnvelope({ kind: "EnvioDTE", xml: await envelopeBytes(slow, { docs: [{ folio: 1 }] }), rutEmisor: EMISOR });
      const seen: string[] = [];
      for (let i = 0; i < 5; i++) {
        const s = await slow.client.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" });
        seen.push(s.estado);
        if (i < 4) expect(s.state).toBe("ENVIADO");
        now += 1000;
      }
      expect(seen).toEqual(["REC", "SOK", "CRT", "FOK", "EPR"]);
      const doc = { rutEmisor: EMISOR, rutReceptor: "77777777-7", tipo: 33, folio: 1, fecha: TODAY, monto: 1416 };
      expect((await slow.client.getDocumentStatus(doc)).estado).toBe("DOK");
    } finally {
      slow.stop();
    }
  });

  test("EnvioBOLETA by the boleta REST API: own token, JSON upload, status with detalle_rep_rech", async () => {
    const rec = recordingFetch();
    const client = world.newClient({ fetch: rec.fetch });
    const ok = await client.uploadEnvelope({ kind: "EnvioBOLETA", xml: await envelopeBytes(world, { kind: "EnvioBOLETA", docs: [{ tipo: 39, folio: 1 }] }), rutEmisor: EMISOR });
    expect(ok.channel).toBe("boleta-rest");
    expect(rec.paths).toEqual(["/recursos/v1/boleta.electronica.semilla", "/recursos/v1/boleta.electronica.token", "/recursos/v1/boleta.electronica.envio"]);
    const s = await client.getUploadStatus({ trackId: ok.trackId, rutEmisor: EMISOR, kind: "EnvioBOLETA", channel: ok.channel });
    expect(s).toMatchObject({ estado: "EPR", state: "ACEPTADO", counts: [{ tipo: 39, informados: 1, aceptados: 1 }], documents: [] });

    const bad = await client.uploadEnvelope({ kind: "EnvioBOLETA", xml: await envelopeBytes(world, { kind: "EnvioBOLETA", docs: [{ tipo: 39, folio: 2, receptor: "[sandbox:rechazo]" }] }), rutEmisor: EMISOR });
    const r = await client.getUploadStatus({ trackId: bad.trackId, rutEmisor: EMISOR, kind: "EnvioBOLETA" });
    expect(r.state).toBe("RECHAZADO");
    expect(r.documents).toEqual([{ tipo: 39, folio: 2, estado: "RCH", errors: [{ codigo: "HED-3-305", descripcion: describeSiiCode("HED-3-305").descripcion }] }]);
  });

  test("one boleta's status by the boleta REST API (not QueryEstDte): DOK, DNK, FAU as QueryEstDte judges DTEs", async () => {
    const client = world.newClient();
    const sent = await client.uploadEnvelope({ kind: "EnvioBOLETA", xml: await envelopeBytes(world, { kind: "EnvioBOLETA", docs: [{ tipo: 39, folio: 7 }] }), rutEmisor: EMISOR });
    const registered = world.sandbox.documents().find((d) => d.tipo === 39 && d.folio === 7 && d.trackId === sent.trackId.padStart(10, "0"));
    expect(registered).toBeDefined();
    const query = { rutEmisor: EMISOR, rutReceptor: registered!.rutRecep, tipo: 39, folio: 7, fecha: registered!.fchEmis, monto: registered!.mntTotal };
    const rec = recordingFetch();
    const asking = world.newClient({ fetch: rec.fetch });
    const ok = await asking.getDocumentStatus(query);
    expect(ok).toMatchObject({ estado: "DOK", glosa: expect.stringContaining("recibido por el SII") });
    expect(rec.paths.at(-1)).toBe(`/recursos/v1/boleta.electronica/${EMISOR}-39-7/estado`);
    expect(rec.paths).not.toContain("/DTEWS/QueryEstDte.jws");
    expect(rec.paths).toContain("/recursos/v1/boleta.electronica.token");
    expect((await asking.getDocumentStatus({ ...query, monto: query.monto + 1 })).estado).toBe("DNK");
    expect((await asking.getDocumentStatus({ ...query, folio: 8 })).estado).toBe("FAU");
    // Boletas that go by DTEUpload are asked by QueryEstDte, the SOAP channel they use.
    const soap = recordingFetch();
    expect((await world.newClient({ fetch: soap.fetch, boletaUpload: "dteupload" }).getDocumentStatus(query)).estado).toBe("DOK");
    expect(soap.paths).toContain("/DTEWS/QueryEstDte.jws");
  });

  test("EnvioBOLETA falls back to DTEUpload + QueryEstUp when the REST upload answers 5xx (when configured)", async () => {
    const client = world.newClient({ boletaUpload: "rest-with-fallback" });
    world.sandbox.faults.set({ mode: "http500", count: 1, path: "/recursos/v1/boleta.electronica.envio" });
    const sent = await client.uploadEnvelope({ kind: "EnvioBOLETA", xml: await envelopeBytes(world, { kind: "EnvioBOLETA", docs: [{ tipo: 39, folio: 3 }] }), rutEmisor: EMISOR });
    expect(sent.channel).toBe("dteupload");
    const s = await client.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioBOLETA", channel: sent.channel });
    expect(s).toMatchObject({ estado: "EPR", state: "ACEPTADO", counts: [{ tipo: 39, aceptados: 1 }] });
  });
});

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { EMISOR, envelopeBytes, startWorld, TODAY, type World } from "./support/world.js";

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.stop());

describe("client ↔ sandbox over loopback HTTP", () => {
  test("seed and token", async () => {
    const seed = await world.client.getSeed();
    expect(seed).toMatch(/^\d{12}$/);
    const token = await world.client.getToken(seed);
    expect(token).toMatch(/^[A-Za-z0-9]{13}$/);
    // single use: the same seed again is refused with ESTADO 08 (transient: ask a new seed)
    await expect(world.client.getToken(seed)).rejects.toMatchObject({ name: "SiiTransientError", status: "08" });
  });

  test("EnvioDTE accepted: upload, status EPR with counts, document DOK", async () => {
    const xml = await envelopeBytes(world, { docs: [{ folio: 1 }] });
    const upload = await world.client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: EMISOR });
    expect(upload.trackId).toMatch(/^\d{10}$/);
    expect(upload.channel).toBe("dteupload");
    const status = await world.client.getUploadStatus({ trackId: upload.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" });
    expect(status).toMatchObject({ estado: "EPR", state: "ACEPTADO", counts: [{ tipo: 33, informados: 1, aceptados: 1, rechazados: 0, reparos: 0 }] });
    const doc = await world.client.getDocumentStatus({ rutEmisor: EMISOR, rutReceptor: "77777777-7", tipo: 33, folio: 1, fecha: TODAY, monto: 1416 });
    expect(doc.estado).toBe("DOK");
  });
});

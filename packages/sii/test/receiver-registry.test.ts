import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SiiTransientError, type ReceiverAction, type SiiClient } from "../src/client/index.js";
import { buildReceiverRegistryRequest } from "../src/protocol/receiver-registry.js";
import { findElements } from "../src/protocol/xml-text.js";
import { EMISOR, envelopeBytes, HOLDER, recordingFetch, startWorld, TODAY, type DocSpec, type World } from "./support/world.js";

const DAY = 86_400_000;
const PATH = "/WSREGISTRORECLAMODTE/registroreclamodteservice";
const AUTH = ["/DTEWS/CrSeed.jws", "/DTEWS/GetTokenFromSeed.jws"];
const RECEPTOR = "77777777-7";
/** A summer instant: Chile is at UTC-3, so 13:04:05Z is 10:04:05 there. */
const START = Date.parse("2026-01-15T13:04:05Z");

/** Uploads the documents and waits until the envelope is processed (EPR). */
async function emit(world: World, docs: DocSpec[]): Promise<void> {
  const sent = await world.client.uploadEnvelope({ kind: "EnvioDTE", xml: await envelopeBytes(world, { docs }), rutEmisor: EMISOR });
  for (let i = 0; i < 50; i++) {
    const status = await world.client.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" });
    if (status.estado === "EPR") return;
    await Bun.sleep(20);
  }
  throw new Error("envelope not processed");
}

const doc = (folio: number, tipo = 33) => ({ rutEmisor: EMISOR, tipo, folio });
const codes = (list: { eventos: Array<{ codigo: string }> }) => list.eventos.map((e) => e.codigo);

/** Registers the actions in order and returns their codResp. */
async function register(client: SiiClient, folio: number, ...acciones: string[]): Promise<number[]> {
  const out: number[] = [];
  for (const accion of acciones) out.push((await client.registerReceiverAction({ ...doc(folio), accion: accion as ReceiverAction })).codigo);
  return out;
}

/** Sends a hand-built request over HTTP (for parameters the client would refuse to write). */
async function rawCall(world: World, body: string, cookie: string | null): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { "Content-Type": "text/xml; charset=utf-8", SOAPAction: '""' };
  if (cookie !== null) headers.Cookie = cookie;
  const response = await fetch(`${world.baseUrl}${PATH}`, { method: "POST", headers, body });
  return { status: response.status, text: await response.text() };
}

describe("registry of acceptances and claims: client ↔ sandbox over loopback HTTP", () => {
  let now = START;
  let world: World;
  beforeAll(async () => {
    world = await startWorld({ now: () => new Date(now) });
  });
  afterAll(() => world.stop());

  test("a received factura: no events (16), ACD recorded (0), listed (15) with its responsable and Chile's time; reception date", async () => {
    await emit(world, [{ folio: 1 }]);
    expect(await world.client.listReceiverEvents(doc(1))).toEqual({
      codigo: 16, descripcion: "Documento no presenta eventos de reclamos o acuse de recibo.", eventos: [],
    });
    expect(await world.client.getSiiReceptionDate(doc(1))).toBe("2026-01-15T10:04:05");
    expect((await world.client.getAssignability(doc(1))).codigo).toBe(22);
    now += 60_000;
    expect(await world.client.registerReceiverAction({ ...doc(1), accion: "ACD" })).toEqual({ codigo: 0, descripcion: "Acción Completada OK." });
    expect(await world.client.listReceiverEvents(doc(1))).toEqual({
      codigo: 15,
      descripcion: "Listado de eventos del documento.",
      eventos: [{ codigo: "ACD", descripcion: "Acepta Contenido del Documento", rutResponsable: HOLDER, fecha: "2026-01-15T10:05:05" }],
    });
    expect((await world.client.getAssignability(doc(1))).codigo).toBe(23);
  });

  test("after a claim: ERM 6 and ACD 12 name it, another claim is recorded, the same claim is 7", async () => {
    await emit(world, [{ folio: 2 }]);
    expect(await register(world.client, 2, "RCD")).toEqual([0]);
    const erm = await world.client.registerReceiverAction({ ...doc(2), accion: "ERM" });
    expect(erm).toEqual({ codigo: 6, descripcion: "No se puede acusar recibo de mercadería de DTE previamente reclamado por RCD" });
    const acd = await world.client.registerReceiverAction({ ...doc(2), accion: "ACD" });
    expect(acd).toEqual({ codigo: 12, descripcion: "No se puede dar por aceptado DTE previamente rechazado por RCD" });
    expect(await register(world.client, 2, "RFP", "RFP", "RCD", "RFT")).toEqual([0, 7, 7, 0]);
    expect(codes(await world.client.listReceiverEvents(doc(2)))).toEqual(["RCD", "RFP", "RFT"]);
    expect((await world.client.getAssignability(doc(2))).codigo).toBe(24);
  });

  test("after ACD: a claim is 11, ACD again 7, ERM recorded", async () => {
    await emit(world, [{ folio: 3 }]);
    expect(await register(world.client, 3, "ACD", "RCD", "RFP", "RFT", "ACD", "ERM", "ERM", "RCD")).toEqual([0, 11, 11, 11, 7, 0, 7, 11]);
    expect(codes(await world.client.listReceiverEvents(doc(3)))).toEqual(["ACD", "ERM"]);
  });

  test("after ERM: a claim is 13, ERM again 7, ACD recorded", async () => {
    await emit(world, [{ folio: 4 }]);
    expect(await register(world.client, 4, "ERM", "RCD", "RFT", "ERM", "ACD", "ACD")).toEqual([0, 13, 13, 7, 0, 7]);
    expect(codes(await world.client.listReceiverEvents(doc(4)))).toEqual(["ERM", "ACD"]);
    expect((await world.client.getAssignability(doc(4))).codigo).toBe(23);
  });

  test("not received: unknown folio, rejected document → 18 (and no reception date); tipo 39 → 3, 20", async () => {
    await emit(world, [{ folio: 5, receptor: "Cliente [sandbox:rechazo] [sandbox:reclamo]" }]);
    for (const folio of [5, 999]) {
      expect((await world.client.listReceiverEvents(doc(folio))).codigo).toBe(18);
      expect((await world.client.registerReceiverAction({ ...doc(folio), accion: "ACD" })).codigo).toBe(18);
      expect((await world.client.getAssignability(doc(folio))).codigo).toBe(18);
      expect(await world.client.getSiiReceptionDate(doc(folio))).toBeNull();
    }
    expect(await world.client.registerReceiverAction({ ...doc(1, 39), accion: "ACD" })).toEqual({ codigo: 3, descripcion: "Tipo de documento no corresponde." });
    expect((await world.client.listReceiverEvents(doc(1, 39))).codigo).toBe(3);
    expect((await world.client.getAssignability(doc(1, 39))).codigo).toBe(20);
    expect(await world.client.getSiiReceptionDate(doc(1, 39))).toBeNull();
  });

  test("bad parameters: RUT or DV (1), folio (2), action (4)", async () => {
    expect((await world.client.listReceiverEvents(doc(0))).codigo).toBe(2);
    expect((await world.client.registerReceiverAction({ ...doc(1), accion: "XYZ" as ReceiverAction })).codigo).toBe(4);
    expect((await world.client.registerReceiverAction({ ...doc(1), accion: "acd" as ReceiverAction })).codigo).toBe(4);
    const token = await world.newClient().token("dte");
    for (const [rutEmisor, dvEmisor] of [["76192083", "8"], ["999", "7"], ["7619208x", "9"], ["60803000", "k"]] as const) {
      const body = buildReceiverRegistryRequest("listarEventosHistDoc", { rutEmisor, dvEmisor, tipoDoc: "33", folio: "1" });
      const answer = await rawCall(world, body, `TOKEN=${token}`);
      expect(answer.status).toBe(200);
      expect(findElements(answer.text, "codResp")[0]?.inner).toBe("1");
    }
  });

  test("credit notes: a 61 that annuls (CodRef 1) lists NCA and makes the factura not assignable (21); another lists ENC", async () => {
    await emit(world, [{ folio: 6 }, { folio: 7 }]);
    now += 3_600_000;
    await emit(world, [
      { tipo: 61, folio: 1, referencias: [{ tipoDoc: 33, folio: 6, fecha: TODAY, codigo: 1, razon: "Anula factura" }] },
      { tipo: 61, folio: 2, precio: 100, referencias: [{ tipoDoc: 33, folio: 7, fecha: TODAY, codigo: 3, razon: "Corrige monto" }] },
    ]);
    const annulled = await world.client.listReceiverEvents(doc(6));
    expect(annulled.codigo).toBe(15);
    expect(annulled.eventos).toEqual([{
      codigo: "NCA", descripcion: "Recepción de NC de anulación que referencia al documento", rutResponsable: EMISOR, fecha: "2026-01-15T11:05:05",
    }]);
    expect((await world.client.getAssignability(doc(6))).codigo).toBe(21);
    expect(codes(await world.client.listReceiverEvents(doc(7)))).toEqual(["ENC"]);
    expect((await world.client.getAssignability(doc(7))).codigo).toBe(22);
    // the receiver's events and the notes' are listed together, oldest first
    now += 60_000;
    expect(await register(world.client, 7, "ERM")).toEqual([0]);
    expect(codes(await world.client.listReceiverEvents(doc(7)))).toEqual(["ENC", "ERM"]);
    expect((await world.client.getAssignability(doc(7))).codigo).toBe(23);
  });

  test("drivers: [sandbox:reclamo] records the receiver's RCD, [sandbox:acepta] its ACD", async () => {
    await emit(world, [{ folio: 8, receptor: "Cliente [sandbox:reclamo]" }, { folio: 9, receptor: "Cliente [sandbox:acepta]" }]);
    const claimed = await world.client.listReceiverEvents(doc(8));
    expect(claimed.eventos).toEqual([{ codigo: "RCD", descripcion: "Reclamo al Contenido del Documento", rutResponsable: RECEPTOR, fecha: expect.any(String) }]);
    expect((await world.client.getAssignability(doc(8))).codigo).toBe(24);
    expect(await register(world.client, 8, "ACD")).toEqual([12]);
    const accepted = await world.client.listReceiverEvents(doc(9));
    expect(accepted.eventos).toMatchObject([{ codigo: "ACD", rutResponsable: RECEPTOR }]);
    expect((await world.client.getAssignability(doc(9))).codigo).toBe(23);
    expect(await register(world.client, 9, "RCD")).toEqual([11]);
  });

  test("an expired token: a Fault, then one re-authentication and the answer", async () => {
    const rec = recordingFetch();
    const client = world.newClient({ fetch: rec.fetch });
    expect((await client.listReceiverEvents(doc(1))).codigo).toBe(15);
    world.sandbox.expireTokens();
    expect((await client.registerReceiverAction({ ...doc(1), accion: "ACD" })).codigo).toBe(7);
    expect(rec.paths.filter((p) => AUTH.includes(p))).toEqual([...AUTH, ...AUTH]);
    expect(rec.paths.filter((p) => p === PATH)).toHaveLength(3);
  });

  test("an unknown token: re-authenticates once and succeeds; refused twice → SiiTransientError(token)", async () => {
    let forge = 1;
    const rec = recordingFetch();
    const forging = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.endsWith(PATH) && forge > 0) {
        forge -= 1;
        return rec.fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Cookie: "TOKEN=FORGEDTOKEN00" } });
      }
      return rec.fetch(input, init);
    }) as typeof fetch;
    const client = world.newClient({ fetch: forging });
    expect(await client.getSiiReceptionDate(doc(1))).toBe("2026-01-15T10:04:05");
    expect(rec.paths.filter((p) => p === "/DTEWS/CrSeed.jws")).toHaveLength(2);

    forge = 2;
    const error = await client.getAssignability(doc(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SiiTransientError);
    expect(error).toMatchObject({ reason: "token", operation: "getAssignability", httpStatus: 500 });
    expect(rec.paths.filter((p) => p === "/DTEWS/CrSeed.jws")).toHaveLength(3);
  });

  test("faults: an HTML page re-authenticates once; HTTP 500 is transient (http) without re-authentication", async () => {
    const rec = recordingFetch();
    const client = world.newClient({ fetch: rec.fetch });
    world.sandbox.faults.set({ mode: "html", count: 1, path: "registroreclamodte" });
    expect((await client.listReceiverEvents(doc(1))).codigo).toBe(15);
    expect(rec.paths.filter((p) => p === "/DTEWS/CrSeed.jws")).toHaveLength(2);
    world.sandbox.faults.set({ mode: "http500", count: 1, path: "registroreclamodte" });
    const error = await client.listReceiverEvents(doc(1)).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "SiiTransientError", reason: "http", httpStatus: 500 });
    expect(rec.paths.filter((p) => p === "/DTEWS/CrSeed.jws")).toHaveLength(2);
  });

  test("without a token or with an unknown operation: a SOAP Fault (HTTP 500)", async () => {
    const body = buildReceiverRegistryRequest("listarEventosHistDoc", { rutEmisor: "76192083", dvEmisor: "9", tipoDoc: "33", folio: "1" });
    const anonymous = await rawCall(world, body, null);
    expect(anonymous.status).toBe(500);
    expect(findElements(anonymous.text, "Fault")).toHaveLength(1);
    const token = await world.newClient().token("dte");
    const unknown = await rawCall(world, body.replaceAll("listarEventosHistDoc", "borrarEventosDoc"), `TOKEN=${token}`);
    expect(unknown.status).toBe(500);
    expect(findElements(unknown.text, "faultstring")[0]?.inner).toBe("Operación desconocida");
  });
});

describe("registry of acceptances and claims: the 8 days (injected clock)", () => {
  let now = START;
  let world: World;
  beforeAll(async () => {
    world = await startWorld({ now: () => new Date(now) });
  });
  afterAll(() => world.stop());

  test("events until 8 × 24 h after the reception, then 8; assignable after 8 days without a claim (25), still not with one (24)", async () => {
    await emit(world, [{ folio: 1 }, { folio: 2 }, { folio: 3 }, { folio: 4, receptor: "Cliente [sandbox:acepta]" }]);
    now = START + 8 * DAY - 1_000;
    expect(await register(world.client, 1, "RFT")).toEqual([0]);
    expect((await world.client.getAssignability(doc(1))).codigo).toBe(24);
    expect((await world.client.getAssignability(doc(2))).codigo).toBe(22);
    now = START + 8 * DAY;
    expect(await world.client.registerReceiverAction({ ...doc(2), accion: "ACD" })).toEqual({
      codigo: 8, descripcion: "Pasados 8 días después de la recepción no es posible registrar reclamos o eventos.",
    });
    expect(await register(world.client, 1, "RCD")).toEqual([8]);
    expect((await world.client.getAssignability(doc(1))).codigo).toBe(24);
    expect((await world.client.getAssignability(doc(2))).codigo).toBe(25);
    expect((await world.client.getAssignability(doc(4))).codigo).toBe(25);
    expect((await world.client.listReceiverEvents(doc(2))).codigo).toBe(16);
    expect(await world.client.getSiiReceptionDate(doc(3))).toBe("2026-01-15T10:04:05");
  });

  test("an annulling note received after the 8 days does not make it 21", async () => {
    now = START + 8 * DAY + 60_000;
    await emit(world, [{ tipo: 61, folio: 1, referencias: [{ tipoDoc: 33, folio: 3, fecha: TODAY, codigo: 1, razon: "Anula factura" }] }]);
    expect(codes(await world.client.listReceiverEvents(doc(3)))).toEqual(["NCA"]);
    expect((await world.client.getAssignability(doc(3))).codigo).toBe(25);
  });
});

describe("registry of acceptances and claims: reception time", () => {
  test("a document received before 14 January 2017 is outside the registry (10)", async () => {
    const world = await startWorld({ now: () => new Date("2017-01-13T12:00:00Z") });
    try {
      await emit(world, [{ folio: 1 }]);
      expect((await world.client.listReceiverEvents(doc(1))).codigo).toBe(10);
      expect((await world.client.registerReceiverAction({ ...doc(1), accion: "ACD" })).codigo).toBe(10);
      expect((await world.client.getAssignability(doc(1))).codigo).toBe(10);
      expect(await world.client.getSiiReceptionDate(doc(1))).toBe("2017-01-13T09:00:00");
    } finally {
      world.stop();
    }
  });

  test("a document is not received (18) until its envelope is processed; the driver's event is dated then", async () => {
    let now = START;
    const world = await startWorld({ stepMs: 1000, now: () => new Date(now) });
    try {
      await world.client.uploadEnvelope({ kind: "EnvioDTE", xml: await envelopeBytes(world, { docs: [{ folio: 1, receptor: "Cliente [sandbox:reclamo]" }] }), rutEmisor: EMISOR });
      expect((await world.client.listReceiverEvents(doc(1))).codigo).toBe(18);
      expect(await world.client.getSiiReceptionDate(doc(1))).toBeNull();
      now += 4_000;
      const listed = await world.client.listReceiverEvents(doc(1));
      expect(listed.eventos).toEqual([{ codigo: "RCD", descripcion: "Reclamo al Contenido del Documento", rutResponsable: RECEPTOR, fecha: "2026-01-15T10:04:09" }]);
      expect(await world.client.getSiiReceptionDate(doc(1))).toBe("2026-01-15T10:04:05");
    } finally {
      world.stop();
    }
  });
});

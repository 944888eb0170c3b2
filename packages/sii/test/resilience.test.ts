import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SiiAuthError, SiiRefusedError, SiiTransientError } from "../src/client/index.js";
import { buildSoapResponse } from "../src/protocol/soap.js";
import { respuesta } from "../src/sandbox/answers.js";
import { EMISOR, envelopeBytes, recordingFetch, startWorld, type World } from "./support/world.js";

let world: World;
beforeAll(async () => {
  world = await startWorld({ companies: [EMISOR], hangMs: 3_000 });
});
afterAll(() => world.stop());

const AUTH = ["/DTEWS/CrSeed.jws", "/DTEWS/GetTokenFromSeed.jws"];

async function uploaded(client = world.client) {
  const xml = await envelopeBytes(world, { docs: [{ folio: 100 + Math.floor(Math.random() * 800) }] });
  return client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: EMISOR });
}

describe("tokens", () => {
  test("cached between calls; renewed when the SII says the token expired (ESTADO 001) and on upload HTML", async () => {
    const rec = recordingFetch();
    const client = world.newClient({ fetch: rec.fetch });
    const sent = await uploaded(client);
    await client.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" });
    expect(rec.paths.filter((p) => AUTH.includes(p))).toEqual(AUTH); // one authentication for both calls

    world.sandbox.expireTokens();
    const s = await client.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" });
    expect(s.estado).toBe("EPR");
    expect(rec.paths.filter((p) => AUTH.includes(p))).toHaveLength(4); // 001 → re-authenticated once

    world.sandbox.expireTokens();
    await uploaded(client); // expired token → HTML page → re-authenticated once → STATUS 0
    expect(rec.paths.filter((p) => AUTH.includes(p))).toHaveLength(6);
  });

  test("renewed proactively after the configured TTL (injected clock)", async () => {
    let now = Date.now();
    const rec = recordingFetch();
    const client = world.newClient({ fetch: rec.fetch, tokenTtlMs: 60_000, now: () => new Date(now) });
    const sent = await uploaded(client);
    now += 59_000;
    await client.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" });
    expect(rec.paths.filter((p) => p === "/DTEWS/CrSeed.jws")).toHaveLength(1);
    now += 2_000;
    await client.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" });
    expect(rec.paths.filter((p) => p === "/DTEWS/CrSeed.jws")).toHaveLength(2);
  });

  test("boleta REST 401 → re-authenticates with the boleta seed/token once", async () => {
    const rec = recordingFetch();
    const client = world.newClient({ fetch: rec.fetch });
    const xml = await envelopeBytes(world, { kind: "EnvioBOLETA", docs: [{ tipo: 39, folio: 50 }] });
    const sent = await client.uploadEnvelope({ kind: "EnvioBOLETA", xml, rutEmisor: EMISOR });
    world.sandbox.expireTokens();
    const s = await client.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioBOLETA" });
    expect(s.estado).toBe("EPR");
    expect(rec.paths.filter((p) => p.endsWith("boleta.electronica.token"))).toHaveLength(2);
  });
});

/** A fetch that answers `path` itself and passes everything else to the sandbox. */
function answering(path: string, answer: () => Response): typeof fetch {
  return (async (input: Request | string | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return url.pathname.endsWith(path) ? answer() : fetch(input, init);
  }) as typeof fetch;
}

describe("authentication refusals", () => {
  test("ESTADO -07 (holder not registered for certificate authentication) → SiiAuthError; nothing is uploaded", async () => {
    const before = world.sandbox.envelopes().length;
    world.sandbox.faults.set({ mode: "token_refused", path: "GetTokenFromSeed" });
    const error = await uploaded(world.newClient()).catch((e: unknown) => e);
    world.sandbox.faults.clear();
    expect(error).toBeInstanceOf(SiiAuthError);
    expect(error).not.toBeInstanceOf(SiiRefusedError);
    expect(error).toMatchObject({ status: "-07", operation: "getToken" });
    expect((error as SiiAuthError).ayuda).toContain("certificado digital");
    expect(world.sandbox.envelopes().length).toBe(before);
  });

  test("ESTADO 10 and 03 are the SII's own failures → SiiTransientError(estado), not a refusal", async () => {
    for (const estado of ["10", "03"]) {
      const inner = respuesta([["ESTADO", estado], ["GLOSA", "ERROR RETORNO DATOS"]], [], false);
      const client = world.newClient({ fetch: answering("GetTokenFromSeed.jws", () => new Response(buildSoapResponse("GetTokenFromSeed", "palena.sii.cl", inner), { headers: { "Content-Type": "text/xml" } })) });
      await expect(uploaded(client)).rejects.toMatchObject({ name: "SiiTransientError", reason: "estado", status: estado });
    }
  });
});

describe("transient failures", () => {
  test("an HTML answer: re-authenticate once and succeed; HTML again → SiiTransientError(html)", async () => {
    const sent = await uploaded();
    world.sandbox.faults.set({ mode: "html", count: 1, path: "QueryEstUp" });
    expect((await world.client.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" })).estado).toBe("EPR");
    world.sandbox.faults.set({ mode: "html", path: "QueryEstUp" });
    const error = await world.client.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" }).catch((e: unknown) => e);
    world.sandbox.faults.clear();
    expect(error).toBeInstanceOf(SiiTransientError);
    expect(error).toMatchObject({ reason: "html", operation: "getUploadStatus" });
  });

  test("a timeout (fault) → SiiTransientError(timeout)", async () => {
    const client = world.newClient({ timeouts: { requestMs: 300 } });
    world.sandbox.faults.set({ mode: "timeout", count: 1 });
    const started = Date.now();
    await expect(client.getSeed()).rejects.toMatchObject({ name: "SiiTransientError", reason: "timeout" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test("[sandbox:timeout] makes the upload hang past the client timeout", async () => {
    const client = world.newClient({ timeouts: { requestMs: 500 } });
    await client.token("dte");
    const xml = await envelopeBytes(world, { docs: [{ folio: 900, receptor: "Cliente [sandbox:timeout]" }] });
    const error = await client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: EMISOR }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "SiiTransientError", reason: "timeout", operation: "uploadEnvelope" });
  });

  test("HTTP 5xx and a down gateway → SiiTransientError(http) with the status", async () => {
    world.sandbox.faults.set({ mode: "http500", count: 1 });
    await expect(world.client.getSeed()).rejects.toMatchObject({ name: "SiiTransientError", reason: "http", httpStatus: 500 });
    world.sandbox.faults.set({ mode: "down", count: 1 });
    await expect(world.client.getSeed()).rejects.toMatchObject({ name: "SiiTransientError", reason: "http", httpStatus: 503 });
  });

  test("nothing listening → SiiTransientError(network)", async () => {
    const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const port = closed.port;
    await closed.stop(true);
    const client = world.newClient({ environment: { baseUrl: `http://127.0.0.1:${port}` } });
    await expect(client.getSeed()).rejects.toMatchObject({ name: "SiiTransientError", reason: "network" });
  });
});

describe("upload refusals (SiiRefusedError with STATUS and detail)", () => {
  test("boleta REST: 400 is a refusal; 429, 403 and 404 say nothing about the boletas → SiiTransientError(request_refused)", async () => {
    const xml = await envelopeBytes(world, { kind: "EnvioBOLETA", docs: [{ tipo: 39, folio: 60 }] });
    const upload = (status: number) =>
      world.newClient({ fetch: answering("boleta.electronica.envio", () => new Response(`{"error":"${status}"}`, { status, headers: { "Content-Type": "application/json" } })) })
        .uploadEnvelope({ kind: "EnvioBOLETA", xml, rutEmisor: EMISOR });
    await expect(upload(400)).rejects.toMatchObject({ name: "SiiRefusedError", status: "400" });
    for (const status of [429, 403, 404]) {
      await expect(upload(status)).rejects.toMatchObject({ name: "SiiTransientError", reason: "request_refused", httpStatus: status });
    }
  });

  test("STATUS 7: schema", async () => {
    const xml = await envelopeBytes(world, { docs: [{ folio: 700 }], mutate: (x) => x.replace(/<NroResol>0<\/NroResol>/, "<NroResol>x</NroResol>") });
    const error = await world.client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: EMISOR }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SiiRefusedError);
    expect(error).toMatchObject({ status: "7", descripcion: "Esquema inválido" });
    expect((error as SiiRefusedError).detail.length).toBeGreaterThan(0);
  });

  test("STATUS 8: a document tampered with after signing", async () => {
    const xml = await envelopeBytes(world, { docs: [{ folio: 701 }], mutate: (x) => x.replace("<NmbItem>Producto de prueba</NmbItem>", "<NmbItem>Producto de prueba!</NmbItem>") });
    await expect(world.client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: EMISOR })).rejects.toMatchObject({ name: "SiiRefusedError", status: "8" });
  });

  test("STATUS 1: the sender is not the authenticated certificate holder", async () => {
    const xml = await envelopeBytes(world, { docs: [{ folio: 702 }] });
    await expect(world.client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: EMISOR, rutEnvia: "22222222-2" }))
      .rejects.toMatchObject({ name: "SiiRefusedError", status: "1" });
  });

  test("STATUS 6: the company is not an authorised issuer", async () => {
    const xml = await envelopeBytes(world, { docs: [{ folio: 703 }] });
    await expect(world.client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: "96670340-7" }))
      .rejects.toMatchObject({ name: "SiiRefusedError", status: "6" });
  });
});

describe("latency without failure (slow, hold)", () => {
  test("hold keeps requests until released, counting them; each then gets its normal answer", async () => {
    const sent = await uploaded();
    const ask = () => world.client.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" });
    world.sandbox.faults.set({ mode: "hold", path: "QueryEstUp" });
    const answers = Promise.all([ask(), ask(), ask()]);
    for (let i = 0; i < 500 && world.sandbox.faults.held < 3; i++) await Bun.sleep(10);
    expect(world.sandbox.faults.held).toBe(3);
    expect(world.sandbox.faults.peakHeld).toBeGreaterThanOrEqual(3);
    world.sandbox.faults.clear();
    expect((await answers).map((s) => s.estado)).toEqual(["EPR", "EPR", "EPR"]);
    expect(world.sandbox.faults.held).toBe(0);
  });

  test("slow answers normally, only later", async () => {
    const sent = await uploaded();
    world.sandbox.faults.set({ mode: "slow", delayMs: 50, path: "QueryEstUp" });
    try {
      expect((await world.client.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" })).estado).toBe("EPR");
    } finally {
      world.sandbox.faults.clear();
    }
  });
});

/**
 * The sandbox's memory across restarts (`stateFile`): a second sandbox on the same journal — as after a restart of
 * its process — knows the documents, envelopes and receivers' events of the first, over loopback HTTP like a client.
 */
import { afterAll, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { issueCaf } from "@timbre/core/caf";
import { generateAuthorityKey } from "@timbre/core/testing";
import { computeTotals } from "@timbre/core/totals";
import { SiiClient } from "../src/client/index.js";
import { documentInput, EMISOR, envelopeBytes, startWorld, testIdentity, TODAY, type World } from "./support/world.js";

const dir = mkdtempSync(join(tmpdir(), "sandbox-state-"));
const stateFile = join(dir, "nested", "sii-sandbox.jsonl");
const worlds: World[] = [];
afterAll(() => {
  for (const world of worlds) world.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("a sandbox started again on its state file still has what it received; a sandbox without one starts empty", async () => {
  const first = await startWorld({ stateFile });
  worlds.push(first);
  const xml = await envelopeBytes(first, { docs: [{ folio: 1 }, { folio: 2, receptor: "Cliente [sandbox:acepta]" }] });
  const sent = await first.client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: EMISOR });
  expect((await first.client.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" })).estado).toBe("EPR");
  expect((await first.client.registerReceiverAction({ rutEmisor: EMISOR, tipo: 33, folio: 1, accion: "ACD" })).codigo).toBe(0);
  const registered = first.sandbox.documents().find((d) => d.folio === 1);
  if (!registered) throw new Error("folio 1 not registered");
  const query = { rutEmisor: EMISOR, rutReceptor: registered.rutRecep, tipo: 33, folio: 1, fecha: registered.fchEmis, monto: registered.mntTotal };
  const statusBefore = await first.client.getDocumentStatus(query);
  first.stop();
  // a write cut short by a crash is skipped, not fatal
  appendFileSync(stateFile, '{"kind":"envelope","record":{"trackId"');

  const second = await startWorld({ stateFile, authority: first.sandbox.authority });
  worlds.push(second);
  expect(second.sandbox.documents().map((d) => d.folio)).toEqual([1, 2]);
  expect(second.sandbox.envelope(sent.trackId)?.final).toBe("EPR");
  expect(await second.client.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" })).toMatchObject({ estado: "EPR" });
  const { numAtencion: _a, ...before } = statusBefore as unknown as Record<string, unknown>;
  const { numAtencion: _b, ...after } = (await second.client.getDocumentStatus(query)) as unknown as Record<string, unknown>;
  expect(after).toEqual(before);
  expect(after).toMatchObject({ estado: "DOK" });
  expect((await second.client.listReceiverEvents({ rutEmisor: EMISOR, tipo: 33, folio: 1 })).eventos.map((e) => e.codigo)).toEqual(["ACD"]);
  expect((await second.client.listReceiverEvents({ rutEmisor: EMISOR, tipo: 33, folio: 2 })).eventos.map((e) => e.codigo)).toEqual(["ACD"]);
  // the same file again is a repeat (RPT), and new envelopes get TRACKIDs after the remembered ones
  const again = await second.client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: EMISOR });
  expect(Number(again.trackId)).toBeGreaterThan(Number(sent.trackId));
  expect(second.sandbox.envelope(again.trackId)?.final).toBe("RPT");
  // folio 1 reused with other data is DTE-3-101: the sandbox remembers what it was sent
  const reused = await second.client.uploadEnvelope({ kind: "EnvioDTE", xml: await envelopeBytes(second, { docs: [{ folio: 1, precio: 5000 }] }), rutEmisor: EMISOR });
  expect(second.sandbox.envelope(reused.trackId)?.documents[0]?.errors.map((e) => e.codigo)).toEqual(["DTE-3-101"]);
  expect(readFileSync(stateFile, "utf8").split("\n").filter(Boolean).length).toBeGreaterThanOrEqual(5);

  const fresh = await startWorld({ authority: first.sandbox.authority });
  worlds.push(fresh);
  expect(fresh.sandbox.documents()).toEqual([]);
});

/** Starts `serve.ts` as its own process; resolves once it printed its URL and state line. */
async function serveProcess(args: string[]): Promise<{ url: string; out: string; stop: () => Promise<number> }> {
  const serve = fileURLToPath(new URL("../src/sandbox/serve.ts", import.meta.url));
  const child = Bun.spawn([process.execPath, serve, "--port", "0", "--step-ms", "0", ...args], { stdout: "pipe", stderr: "pipe" });
  const reader = child.stdout.getReader();
  let out = "";
  while (!/keeping its state in .*\n/.test(out)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve.ts exited: ${out}${await new Response(child.stderr).text()}`);
    out += new TextDecoder().decode(value);
  }
  const url = /SII sandbox on (http:\/\/[^ ]+)/.exec(out)?.[1] ?? "";
  return { url, out, stop: () => (child.kill("SIGTERM"), child.exited) };
}

test("standalone: serve.ts --state remembers across a restart of its process (QueryEstDte still DOK)", async () => {
  const authority = generateAuthorityKey(9999);
  const pemFile = join(dir, "authority.pem");
  writeFileSync(pemFile, authority.publicKey.export({ type: "spki", format: "pem" }).toString());
  const state = join(dir, "standalone.jsonl");
  const caf = issueCaf({ authority, rut: EMISOR, razonSocial: "SASCO SpA", tipo: 33, desde: 1, hasta: 10, fechaAutorizacion: TODAY }).caf;
  const identity = await testIdentity();

  const first = await serveProcess(["--trust-pem", pemFile, "--state", state]);
  expect(first.out).toContain("(0 documents remembered)");
  const world = { identity, baseUrl: first.url } as unknown as World;
  const client = new SiiClient({ environment: { baseUrl: first.url }, identity, timeouts: { requestMs: 10_000 } });
  const sent = await client.uploadEnvelope({ kind: "EnvioDTE", xml: await envelopeBytes(world, { docs: [{ folio: 3, caf }] }), rutEmisor: EMISOR });
  expect((await client.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" })).estado).toBe("EPR");
  expect(await first.stop()).toBe(0);

  const second = await serveProcess(["--trust-pem", pemFile, "--state", state]);
  try {
    expect(second.out).toContain("(1 documents remembered)");
    const again = new SiiClient({ environment: { baseUrl: second.url }, identity, timeouts: { requestMs: 10_000 } });
    const input = documentInput({ folio: 3 });
    const total = computeTotals(input).montoTotal;
    const status = await again.getDocumentStatus({ rutEmisor: EMISOR, rutReceptor: input.receiver.rut, tipo: 33, folio: 3, fecha: input.fecha ?? TODAY, monto: total });
    expect(status).toMatchObject({ estado: "DOK" });
    expect(await again.getUploadStatus({ trackId: sent.trackId, rutEmisor: EMISOR, kind: "EnvioDTE" })).toMatchObject({ estado: "EPR" });
  } finally {
    await second.stop();
  }
}, 60_000);

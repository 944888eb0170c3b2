/**
 * DTE, batch and webhook commands against a scripted loopback API (the real server has no /dte yet):
 * the CLI runs as a child process; the fake records what it was sent.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { webhooks } from "@timbre/sdk";
import { fail, ok, type RecordingServer, startRecordingServer } from "../../../packages/sdk/test/support/recording-server.js";
import { ensureBuilt, freshHome, removeFreshHomes, runCli, runInTerminal } from "./support/run-cli.js";

afterAll(removeFreshHomes);

beforeAll(() => ensureBuilt(), 120_000);

let servers: RecordingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  servers = [];
});
function serve(handler: Parameters<typeof startRecordingServer>[0]) {
  const server = startRecordingServer(handler);
  servers.push(server);
  return server;
}

const dte = (over: Record<string, unknown> = {}) => ({
  id: "dte_1", tipo: 39, folio: 17, fecha_emision: "2026-11-22T14:03:07.123Z", fecha: "2026-11-22",
  receptor: { rut: "66666666-6", razon_social: "Consumidor final" },
  monto_neto: 2521, monto_exento: 0, monto_iva: 479, monto_total: 3000, estado: "ENVIADO", track_id: "123",
  pdf_url: "/v1/dte/dte_1/pdf", xml_url: "/v1/dte/dte_1/xml", environment: "test", created_at: "2026-11-22T14:03:07.123Z",
  ...over,
});
const withKey = (api: string) => ({ TIMBRE_API_KEY: "sk_test_fake", TIMBRE_API_URL: api });

test("quick receipt from --item flags, with an idempotency key", async () => {
  const api = serve(() => ok(dte(), {}, 201));
  const result = await runCli(["dte", "emit", "--item", "Café:2:1500", "--item", "Pan: integral:1:0", "--json"], { home: freshHome(), env: withKey(api.baseUrl) });
  expect(result.code).toBe(0);
  expect(result.json).toMatchObject({ id: "dte_1", folio: 17 });
  const request = api.requests[0];
  expect(request?.path).toBe("/v1/dte/emit");
  expect(JSON.parse(request?.body ?? "{}")).toEqual({
    tipo: 39,
    receptor: { rut: "66666666-6", razon_social: "Consumidor final" },
    items: [{ nombre: "Café", cantidad: 2, precio: 1500 }, { nombre: "Pan: integral", cantidad: 1, precio: 0 }],
    precios_brutos: true,
  });
  expect(request?.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
  // what the command chose is said (on stderr: stdout stays the JSON)
  expect(result.stderr).toContain("Receptor: 66666666-6, the anonymous consumer");
  expect(result.stderr).toContain("Prices: gross, IVA included (precios_brutos: true");
});

test("a quick boleta with --net-prices sends precios_brutos: false and says so; a named buyer is not called anonymous", async () => {
  const api = serve(() => ok(dte(), {}, 201));
  const result = await runCli(["dte", "emit", "--item", "Café:2:1261", "--net-prices", "--receptor-rut", "76192083-9", "--receptor-razon-social", "Cliente SpA", "--json"], { home: freshHome(), env: withKey(api.baseUrl) });
  expect(result.code).toBe(0);
  expect(JSON.parse(api.requests[0]?.body ?? "{}")).toMatchObject({ tipo: 39, receptor: { rut: "76192083-9" }, precios_brutos: false });
  expect(result.stderr).toContain("Prices: net, without IVA (precios_brutos: false)");
  expect(result.stderr).not.toContain("anonymous consumer");
});

test("dte emit --help states the price rule and who may be anonymous", async () => {
  const result = await runCli(["dte", "emit", "--help"], { home: freshHome() });
  const help = result.stdout.replace(/\s+/g, " ");
  expect(help).toContain("unless the request says `precios_brutos: true`");
  expect(help).toContain("sends precios_brutos: false");
  expect(help).toContain("required except on boletas 39/41");
});

test("a quick factura, guía or note needs --receptor-rut (66666666-6 refused too): usage error, nothing sent", async () => {
  const api = serve(() => ok(dte({ tipo: 33 }), {}, 201));
  for (const args of [["--tipo", "33"], ["--tipo", "52", "--traslado", "5"], ["--tipo", "33", "--receptor-rut", "66.666.666-6"]]) {
    const result = await runCli(["dte", "emit", ...args, "--item", "Café:1:1000", "--json"], { home: freshHome(), env: withKey(api.baseUrl) });
    expect(result.code).toBe(2);
    expect(result.stderr + result.stdout).toContain("--receptor-rut is required");
    expect(result.stderr + result.stdout).toContain("only boletas");
  }
  expect(api.requests).toEqual([]);
});

test("a quick 110, 111, 112, 46 or 43 is a usage error pointing to --file and the README's example; the example is sent as it is", async () => {
  const api = serve(() => ok(dte({ tipo: 110, moneda: "FRANCO SZ", tipo_cambio: 1075, monto_exento: 112517.5, monto_total: 112517.5, monto_total_pesos: 120956313 }), {}, 201));
  for (const tipo of ["110", "112", "46", "43"]) {
    const result = await runCli(["dte", "emit", "--tipo", tipo, "--receptor-rut", "76192083-9", "--item", "Café:1:1000", "--json"], { home: freshHome(), env: withKey(api.baseUrl) });
    expect(result.code).toBe(2);
    expect(result.stderr + result.stdout).toContain("--file");
    expect(result.stderr + result.stdout).toContain("README");
  }
  expect(api.requests).toEqual([]);
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const example = /«?Exports, facturas de compra[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toBeDefined();
  const home = freshHome();
  const file = join(home, "export.json");
  writeFileSync(file, example ?? "");
  const result = await runCli(["dte", "emit", "--file", file, "--json"], { home, env: withKey(api.baseUrl) });
  expect(result.code, result.stderr).toBe(0);
  expect(JSON.parse(api.requests[0]?.body ?? "{}")).toEqual(JSON.parse(example ?? "{}"));
});

test("emit --file with a fixed idempotency key, human output", async () => {
  const home = freshHome();
  const file = join(home, "invoice.json");
  writeFileSync(file, JSON.stringify({ tipo: 33, receptor: { rut: "76192083-9", razon_social: "Cliente SpA" }, items: [{ nombre: "X", cantidad: 1, precio: 100 }] }));
  const api = serve(() => ok(dte({ tipo: 33 }), {}, 201));
  const result = await runCli(["dte", "emit", "--file", file, "--idempotency-key", "factura-77"], { home, env: withKey(api.baseUrl) });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain("Factura electrónica N° 17");
  expect(result.stdout).toContain("$3.000");
  expect(api.requests[0]?.headers.get("idempotency-key")).toBe("factura-77");
});

test("batch: chunks, summary, failures by line, exit 1", async () => {
  const home = freshHome();
  const file = join(home, "docs.jsonl");
  const doc = { tipo: 39, receptor: { rut: "66666666-6", razon_social: "CF" }, items: [{ nombre: "A", cantidad: 1, precio: 1000 }] };
  writeFileSync(file, `${JSON.stringify(doc)}\n${JSON.stringify(doc)}\n\n${JSON.stringify(doc)}\n`);
  const api = serve((req) => {
    const { documents } = JSON.parse(req.body) as { documents: unknown[] };
    return ok({
      results: documents.map((_, index) =>
        index === 1 ? { index, success: false, error: { code: "VALIDATION_ERROR", message: "items[0].precio" } } : { index, success: true, data: dte({ monto_total: 1000 }) },
      ),
    });
  });
  const result = await runCli(["dte", "batch", "--file", file, "--chunk-size", "2", "--json"], { home, env: withKey(api.baseUrl) });
  expect(result.code).toBe(1);
  expect(api.requests.map((r) => (JSON.parse(r.body) as { documents: unknown[] }).documents.length)).toEqual([2, 1]);
  const summary = result.json as { total: number; emitted: number; failed: number; monto_total: number; results: Array<{ index: number; success: boolean }> };
  expect(summary).toMatchObject({ total: 3, emitted: 2, failed: 1, monto_total: 2000 });
  expect(summary.results.map((r) => r.index)).toEqual([0, 1, 2]);

  // places are file lines (the blank line counts); the failed request goes to docs.fallidos.jsonl
  expect(summary.results.map((r) => (r as { rows?: number[] }).rows)).toEqual([[1], [2], [4]]);
  expect(readFileSync(join(home, "docs.fallidos.jsonl"), "utf8")).toBe(`${JSON.stringify(doc)}\n`);

  const human = await runCli(["dte", "batch", "--file", file], { home, env: withKey(api.baseUrl) });
  expect(human.stdout).toContain("2 emitted, 1 failed, of 3");
  expect(human.stdout).toContain("The 1 failed document is in ");
  expect(human.stdout).toMatch(/LINE +CODE +MESSAGE\n.*\n +2 +VALIDATION_ERROR +items\[0\]\.precio/);
  // each document's key is made from its content: the same file sends the same keys, --again none
  const docKeys = (from: number) => api.requests.slice(from).flatMap((r) => (JSON.parse(r.body) as { documents: Array<{ idempotency_key?: string }> }).documents.map((d) => d.idempotency_key));
  const keys = docKeys(0).slice(0, 3); // the first run's: three equal documents, first, second and third of their kind
  expect(keys[0]).toMatch(/^doc-[0-9a-f]{40}-1$/);
  expect(keys).toEqual(["1", "2", "3"].map((n) => keys[0]?.replace(/1$/, n)));
  const sent = api.requests.length;
  await runCli(["dte", "batch", "--file", file, "--chunk-size", "2"], { home, env: withKey(api.baseUrl) });
  expect(docKeys(sent)).toEqual(keys);
  const again = api.requests.length;
  await runCli(["dte", "batch", "--file", file, "--chunk-size", "2", "--again"], { home, env: withKey(api.baseUrl) });
  expect(docKeys(again).filter((k) => k !== undefined)).toEqual([]);
}, 30_000);

test("batch --columns lists the spreadsheet's columns; --template needs no login", async () => {
  const home = freshHome();
  const columns = await runCli(["dte", "batch", "--columns", "--json"], { home });
  expect(columns.code).toBe(0);
  expect(columns.json).toContainEqual(expect.objectContaining({ name: "item.precio", short: "precio", level: "item" }));
  expect(columns.json).toContainEqual(expect.objectContaining({ name: "referencia.folio", level: "document" }));
  const template = await runCli(["dte", "batch", "--template", "--separator", ","], { home });
  expect(template.stdout.split("\r\n")[0]).toStartWith("\uFEFFdocumento,tipo,fecha,receptor.rut,");
  const neither = await runCli(["dte", "batch"], { home });
  expect(neither.code).toBe(2);
}, 30_000);

test("status --wait polls with refresh until final", async () => {
  const api = serve((_req, i) => ok({ id: "dte_1", estado: i < 1 ? "ENVIADO" : "ACEPTADO", track_id: "123", sii: null, historial: [] }));
  const result = await runCli(["dte", "status", "dte_1", "--wait", "--interval", "1", "--json"], { home: freshHome(), env: withKey(api.baseUrl) });
  expect(result.code).toBe(0);
  expect(result.json).toMatchObject({ estado: "ACEPTADO" });
  expect(api.requests).toHaveLength(2);
  expect(api.requests.every((r) => r.query.get("refresh") === "true")).toBe(true);
});

test("status --wait without a terminal: one progress line per state on stderr, the answer on stdout", async () => {
  const estados = ["ENVIADO", "ENVIADO", "ACEPTADO"];
  const api = serve((_req, i) => ok({ id: "dte_1", estado: estados[Math.min(i, 2)], track_id: "123", sii: null, historial: [] }));
  const result = await runCli(["dte", "status", "dte_1", "--wait", "--interval", "1"], { home: freshHome(), env: withKey(api.baseUrl) });
  expect(result.code).toBe(0);
  expect(api.requests).toHaveLength(3);
  expect(result.stderr).toBe("Waiting for dte_1: ENVIADO\nWaiting for dte_1: ACEPTADO\n");
  expect(result.stdout).toContain("ACEPTADO");
});

test("status --wait exits 1 when rejected", async () => {
  const api = serve(() => ok({ id: "dte_1", estado: "RECHAZADO", track_id: "1", sii: { estado_envio: "RCH", glosa: "Rechazado", aceptados: 0, rechazados: 1, reparos: 0, errores: [{ codigo: "DTE-3-101", descripcion: "Folio repetido" }], consultado_at: null }, historial: [] }));
  const result = await runCli(["dte", "status", "dte_1", "--wait"], { home: freshHome(), env: withKey(api.baseUrl) });
  expect(result.code).toBe(1);
  expect(result.stdout).toContain("DTE-3-101");
});

test("pdf -o writes the exact bytes", async () => {
  const home = freshHome();
  const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0xe9, 0x00]);
  const api = serve(() => new Response(bytes, { headers: { "content-type": "application/pdf" } }));
  const out = join(home, "f.pdf");
  const result = await runCli(["dte", "pdf", "dte_1", "-o", out, "--formato", "termica"], { home, env: withKey(api.baseUrl) });
  expect(result.code).toBe(0);
  expect([...readFileSync(out)]).toEqual([...bytes]);
  expect(api.requests[0]?.query.get("formato")).toBe("termica");
});

test("dte xml without -o writes the exact bytes to stdout and no file in the current folder; -o writes the file", async () => {
  const home = freshHome();
  const xml = '<?xml version="1.0" encoding="ISO-8859-1"?><DTE>Compañía</DTE>';
  const bytes = new TextEncoder().encode(xml);
  const api = serve(() => new Response(bytes, { headers: { "content-type": "application/xml" } }));
  const cwd = mkdtempSync(join(tmpdir(), "timbre-cwd-"));
  try {
    const result = await runCli(["dte", "xml", "dte_1"], { home, env: withKey(api.baseUrl), cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(xml);
    expect(readdirSync(cwd)).toEqual([]);
    const out = join(home, "d.xml");
    expect((await runCli(["dte", "xml", "dte_1", "-o", out], { home, env: withKey(api.baseUrl), cwd })).code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(xml);
    const json = await runCli(["dte", "xml", "dte_1", "--json"], { home, env: withKey(api.baseUrl), cwd });
    expect(json.code).toBe(2);
    expect(json.stderr + json.stdout).toContain("pass -o FILE");
    expect(readdirSync(cwd)).toEqual([]);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test("dte pdf without -o: the bytes to stdout when it is a pipe; at a terminal it asks for -o and writes nothing", async () => {
  const home = freshHome();
  const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31]);
  const api = serve(() => new Response(bytes, { headers: { "content-type": "application/pdf" } }));
  const cwd = mkdtempSync(join(tmpdir(), "timbre-cwd-"));
  try {
    const piped = await runCli(["dte", "pdf", "dte_1"], { home, env: withKey(api.baseUrl), cwd });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe("%PDF-1");
    // a real terminal: script(1) gives the CLI a pseudo-terminal as stdout
    const tty = await runInTerminal(["dte", "pdf", "dte_1"], { home, env: withKey(api.baseUrl), cwd });
    expect(tty.output).toContain("Not writing a PDF to the terminal: pass -o FILE");
    expect(tty.output).not.toContain("%PDF");
    expect(tty.code).toBe(2);
    expect(readdirSync(cwd)).toEqual([]);
    expect(api.requests).toHaveLength(1); // refused before downloading
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test("list renders a table", async () => {
  const api = serve(() => ok([dte(), dte({ id: "dte_2", folio: 18, estado: "ACEPTADO" })], { pagination: { page: 1, limit: 20, total: 2, total_pages: 1 } }));
  const result = await runCli(["dte", "list", "--tipo", "39"], { home: freshHome(), env: withKey(api.baseUrl) });
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(/FOLIO[\s\S]*17[\s\S]*18/);
  expect(result.stdout).toContain("page 1/1 · 2 total");
  expect(api.requests[0]?.query.get("tipo")).toBe("39");
});

test("a session without a business is told how to pick one (exit 2)", async () => {
  const home = freshHome();
  mkdirSync(join(home, ".config/timbre"), { recursive: true });
  const session = { accessToken: "jwt", refreshToken: "rt", expiresAt: new Date(Date.now() + 600_000).toISOString(), email: "a@b.cl" };
  writeFileSync(join(home, ".config/timbre/config.json"), JSON.stringify({ apiUrl: "http://127.0.0.1:9/v1", session }));
  const result = await runCli(["dte", "list"], { home });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("timbre businesses use");
});

test("API errors come back with their code in --json", async () => {
  const api = serve(() => fail(422, "FOLIOS_EXHAUSTED"));
  const result = await runCli(["dte", "emit", "--item", "A:1:1", "--json"], { home: freshHome(), env: withKey(api.baseUrl) });
  expect(result.code).toBe(1);
  expect(result.json).toMatchObject({ error: { code: "FOLIOS_EXHAUSTED", status: 422, request_id: "req_err" } });
});

test("webhooks listen forwards events signed like the server", async () => {
  const secret = `whsec_${Buffer.from("k".repeat(32)).toString("base64")}`;
  const event = {
    id: "evt_1", event: "dte.status_changed", environment: "test", business_id: "biz_1", created_at: "2026-11-22T14:03:07.123Z",
    data: { dte_id: "dte_1", tipo: 33, folio: 7, old_status: "ENVIADO", new_status: "ACEPTADO", timestamp: "2026-11-22T14:03:07.123Z" },
  };
  const api = serve(() => ok([{ ...event, deliveries: [] }], { pagination: { page: 1, limit: 100, total: 1, total_pages: 1 } }));
  const verified: unknown[] = [];
  const receiver = serve(async (req) => {
    verified.push(await webhooks.verify(req.body, req.headers, secret));
    return new Response(null, { status: 204 });
  });
  const result = await runCli(
    ["webhooks", "listen", "--forward-to", `${receiver.baseUrl}/hook`, "--secret", secret, "--once", "--replay"],
    { home: freshHome(), env: withKey(api.baseUrl) },
  );
  expect(result.code).toBe(0);
  expect(result.stdout).toContain("evt_1");
  expect(result.stdout).toContain("→ 204");
  expect(verified).toEqual([event]);
});

test("the API URL may be given with or without /v1 and a trailing slash: requests go under /v1 alike", async () => {
  const api = serve(() => ok(dte(), {}, 201));
  const root = api.baseUrl.replace(/\/v1$/, "");
  for (const url of [root, `${root}/`, `${root}/v1/`]) {
    const result = await runCli(["dte", "emit", "--item", "Café:1:1000", "--json"], { home: freshHome(), env: withKey(url) });
    expect(result.code).toBe(0);
  }
  expect(api.requests.map((r) => r.path)).toEqual(["/v1/dte/emit", "/v1/dte/emit", "/v1/dte/emit"]);
});

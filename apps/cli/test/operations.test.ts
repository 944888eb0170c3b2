/**
 * Operations against the real server (child process, first-run sandbox account with its certificate and CAFs):
 * `dte emit --dry-run` checks a document and shows its totals and preview PDF without taking a folio;
 * `events resend` delivers an event again to a webhook receiver on loopback; `webhooks rotate-secret` gives a new
 * secret while deliveries stay verifiable with the old one for the rotation window.
 */
import { afterAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { webhooks } from "@timbre/sdk";
import { useFirstRunServer } from "./support/first-run-server.js";
import { freshHome, removeFreshHomes, runCli } from "./support/run-cli.js";

afterAll(removeFreshHomes);

const firstRun = useFirstRunServer();

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
}

/** A factura 33 written as the JSON file `dte emit --file` reads; the receptor's giro and address have defaults. */
function facturaFile(home: string, name: string, receptor: Record<string, string>, items: Array<Record<string, unknown>>): string {
  const file = join(home, name);
  writeFileSync(file, JSON.stringify({ tipo: 33, receptor: { giro: "Comercio", direccion: "Calle Falsa 123", comuna: "Santiago", ...receptor }, items }));
  return file;
}

const FACTURA = ["--tipo", "33", "--receptor-rut", "76192083-9", "--receptor-razon-social", "Tostaduría del Sur Ltda.", "--receptor-giro", "Comercio",
  "--receptor-direccion", "Los Aromos 45", "--receptor-comuna", "Temuco", "--item", "Café en grano:2:50000"];

test("dte emit --dry-run: the totals and the preview PDF, no folio taken; its problems as the emission would give them", async () => {
  const home = freshHome();
  const pdfPath = join(home, "preview.pdf");
  const dry = await runCli(["dte", "emit", ...FACTURA, "--dry-run", "--pdf", pdfPath, "--json"], { home, env: firstRun.env });
  expect(dry.stderr).toBe("");
  expect(dry.code).toBe(0);
  const result = dry.json as { dry_run: boolean; totals: Record<string, number>; xml_preview: string; pdf: { path: string; bytes: number } };
  expect(result).toMatchObject({ dry_run: true, totals: { monto_neto: 100000, monto_exento: 0, monto_iva: 19000, monto_total: 119000 }, pdf: { path: pdfPath } });
  expect(result.xml_preview).toContain("<RznSocRecep>Tostaduría del Sur Ltda.</RznSocRecep>");
  const pdf = readFileSync(pdfPath);
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(pdf.byteLength).toBe(result.pdf.bytes);

  const human = await runCli(["dte", "emit", ...FACTURA, "--dry-run"], { home, env: firstRun.env });
  expect(human.code).toBe(0);
  expect(human.stdout).toContain("Dry run: nothing emitted, no folio taken.");
  expect(human.stdout).toMatch(/iva \(19 %\): +\$19\.000/);
  expect(human.stdout).toMatch(/total: +\$119\.000/);

  // Nothing was stored and no folio was taken: the real emission gets the first folio.
  expect(((await runCli(["dte", "list", "--json"], { home, env: firstRun.env })).json as { data: unknown[] }).data).toEqual([]);
  const emitted = await runCli(["dte", "emit", ...FACTURA, "--json"], { home, env: firstRun.env });
  expect(emitted.code).toBe(0);
  expect(emitted.json).toMatchObject({ tipo: 33, folio: 1, monto_total: 119000 });

  const bad = await runCli(["dte", "emit", ...FACTURA.map((a) => (a === "76192083-9" ? "76192083-8" : a)), "--dry-run"], { home, env: firstRun.env });
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("receptor.rut");
  const both = await runCli(["dte", "emit", ...FACTURA, "--dry-run", "--wait"], { home, env: firstRun.env });
  expect(both.code).toBe(2);
  const pdfAlone = await runCli(["dte", "emit", ...FACTURA, "--pdf", pdfPath], { home, env: firstRun.env });
  expect(pdfAlone.code).toBe(2);
  expect(((await runCli(["dte", "list", "--json"], { home, env: firstRun.env })).json as { data: unknown[] }).data).toHaveLength(1);
}, 60_000);

test("a factura with additional taxes: the dry run, dte show and dte resumen list them by code", async () => {
  const home = freshHome();
  const file = facturaFile(home, "bebidas.json", { rut: "76192083-9", razon_social: "Minimarket Los Aromos", direccion: "Los Aromos 45", comuna: "Temuco" }, [
    { nombre: "Bebida cola 3 L", cantidad: 24, precio: 1890, impuesto_adicional: 271 },
    { nombre: "Agua mineral", cantidad: 12, precio: 690, impuesto_adicional: 27 },
  ]);
  // 271: 45 360 × 18 % = 8 164.8; 27: 8 280 × 10 % = 828; neto 53 640, IVA 10 192
  const dry = await runCli(["dte", "emit", "--file", file, "--dry-run"], { home, env: firstRun.env });
  expect(dry.code).toBe(0);
  expect(dry.stdout).toMatch(/impuesto 271 \(18 %\): +\$8\.165/);
  expect(dry.stdout).toMatch(/impuesto 27 \(10 %\): +\$828/);
  expect(dry.stdout).toMatch(/total: +\$72\.825/);
  const emitted = await runCli(["dte", "emit", "--file", file, "--json"], { home, env: firstRun.env });
  expect(emitted.json).toMatchObject({ monto_total: 72825 });
  const shown = await runCli(["dte", "show", (emitted.json as { id: string }).id], { home, env: firstRun.env });
  expect(shown.stdout).toContain("Impuestos adicionales:\n  271 (18 %) sobre $45.360: $8.165\n  27 (10 %) sobre $8.280: $828\n");
  const month = (emitted.json as { fecha: string }).fecha.slice(0, 7);
  const resumen = await runCli(["dte", "resumen", "--mes", month], { home, env: firstRun.env });
  expect(resumen.stdout).toContain("Impuesto adicional 27 (10 %) on $8.280: $828\nImpuesto adicional 271 (18 %) on $45.360: $8.165\n");
  // the quick --item names its tax with imp=CODE
  const quick = await runCli(
    ["dte", "emit", "--tipo", "33", "--receptor-rut", "76192083-9", "--receptor-razon-social", "Minimarket Los Aromos", "--receptor-giro", "Comercio",
      "--receptor-direccion", "Los Aromos 45", "--receptor-comuna", "Temuco", "--item", "Pisco 35°:2:7990:imp=24", "--dry-run"],
    { home, env: firstRun.env },
  );
  expect(quick.code).toBe(0);
  expect(quick.stdout).toMatch(/impuesto 24 \(31\.5 %\): +\$5\.034/); // 15 980 × 31.5 % = 5 033.7
}, 60_000);

test("dte aceptacion: a factura the receiver claimed exits 1 with the RCD; --json gives the estado", async () => {
  const home = freshHome();
  const file = facturaFile(home, "reclamada.json", { rut: "60803000-K", razon_social: "Cliente [sandbox:reclamo]" }, [{ nombre: "Servicio", cantidad: 1, precio: 10000 }]);
  const emitted = await runCli(["dte", "emit", "--file", file, "--wait", "--json"], { home, env: firstRun.env });
  expect(emitted.stderr).toBe("");
  expect(emitted.code).toBe(0);
  const id = (emitted.json as { id: string }).id;
  const before = await runCli(["dte", "aceptacion", id, "--json"], { home, env: firstRun.env });
  expect(before.code).toBe(0);
  // the server's own first check comes 30 s after the acceptance (sandbox): normally not yet asked
  expect(["SIN_CONSULTAR", "RECLAMADO"]).toContain((before.json as { estado: string }).estado);
  const claimed = await runCli(["dte", "aceptacion", id, "--refresh"], { home, env: firstRun.env });
  expect(claimed.code).toBe(1);
  expect(claimed.stdout).toMatch(/estado: +RECLAMADO/);
  expect(claimed.stdout).toMatch(/Eventos:\n {2}RCD \S+ 60803000-K Reclamo/);
  const listed = await runCli(["dte", "list", "--aceptacion", "RECLAMADO", "--json"], { home, env: firstRun.env });
  expect((listed.json as { data: Array<{ id: string }> }).data.map((d) => d.id)).toEqual([id]);
  const events = await runCli(["events", "list", "--event", "dte.acceptance_changed"], { home, env: firstRun.env });
  expect(events.stdout).toContain("SIN_RESPUESTA → RECLAMADO");
}, 60_000);

test("a quick guía de despacho (--tipo 52 --traslado 5) at zero prices; dte show gives its traslado", async () => {
  const home = freshHome();
  const guia = await runCli(
    ["dte", "emit", "--tipo", "52", "--traslado", "5", "--receptor-rut", "76192083-9", "--receptor-razon-social", "Bodega Central", "--receptor-giro", "Comercio",
      "--receptor-direccion", "Los Aromos 45", "--receptor-comuna", "Temuco", "--item", "Andamio:12:0", "--json"],
    { home, env: firstRun.env },
  );
  expect(guia.stderr).toBe("");
  expect(guia.code).toBe(0);
  expect(guia.json).toMatchObject({ tipo: 52, monto_total: 0 });
  const shown = await runCli(["dte", "show", (guia.json as { id: string }).id], { home, env: firstRun.env });
  expect(shown.stdout).toContain("Guía de despacho N° ");
  expect(shown.stdout).toContain("Traslado: tipo 5\n");
  const missing = await runCli(["dte", "emit", "--tipo", "52", "--receptor-rut", "76192083-9", "--item", "Andamio:1:0", "--json"], { home, env: firstRun.env });
  expect(missing.code).toBe(1);
  expect(JSON.stringify(missing.json)).toContain("traslado.tipo");
}, 60_000);

test("events resend delivers an event again; after webhooks rotate-secret deliveries verify with the new and the old secret", async () => {
  const home = freshHome();
  const received: Array<{ id: string; body: string; headers: Headers }> = [];
  const receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      received.push({ id: request.headers.get("webhook-id") ?? "", body: await request.text(), headers: request.headers });
      return new Response("ok");
    },
  });
  try {
    const hooked = await runCli(["businesses", "update", "--webhook-url", `http://127.0.0.1:${receiver.port}/hook`, "--json"], { home, env: firstRun.env });
    expect(hooked.code).toBe(0);
    const firstSecret = (hooked.json as { webhook_secret: string }).webhook_secret;
    expect(firstSecret).toStartWith("whsec_");

    expect((await runCli(["dte", "emit", "--item", "Café:1:1500"], { home, env: firstRun.env })).code).toBe(0);
    const delivered = await until("a first delivery", () => received[0]);
    const event = await webhooks.verify(delivered.body, delivered.headers, firstSecret);
    expect(event.event).toBe("dte.status_changed");

    const resent = await runCli(["events", "resend", delivered.id, "--json"], { home, env: firstRun.env });
    expect(resent.stderr).toBe("");
    expect(resent.code).toBe(0);
    expect(resent.json).toMatchObject({ id: delivered.id, attempt: 2, due_at: expect.any(String) });
    const again = await until("the resent delivery", () => received.filter((r) => r.id === delivered.id)[1]);
    expect(again.body).toBe(delivered.body);

    const rotated = await runCli(["webhooks", "rotate-secret", "--json"], { home, env: firstRun.env });
    expect(rotated.code).toBe(0);
    const { webhook_secret: secret } = rotated.json as { business_id: string; webhook_secret: string };
    expect(secret).toStartWith("whsec_");
    expect(secret).not.toBe(firstSecret);
    const human = await runCli(["events", "resend", delivered.id], { home, env: firstRun.env });
    expect(human.stdout).toContain(`Queued delivery attempt 3 of ${delivered.id}`);
    const third = await until("the delivery after the rotation", () => received.filter((r) => r.id === delivered.id)[2]);
    expect((await webhooks.verify(third.body, third.headers, secret)).id).toBe(delivered.id);
    expect((await webhooks.verify(third.body, third.headers, firstSecret)).id).toBe(delivered.id);
    await expect(webhooks.verify(again.body, again.headers, secret)).rejects.toThrow();

    const unknown = await runCli(["events", "resend", "evt_unknown", "--json"], { home, env: firstRun.env });
    expect(unknown.code).toBe(4);
    expect(unknown.json).toMatchObject({ error: { code: "NOT_FOUND" } });
  } finally {
    await receiver.stop(true);
  }
}, 60_000);

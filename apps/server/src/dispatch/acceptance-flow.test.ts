// The receiver's acceptance or claim of a factura, end to end over the sandbox SII's registry (real HTTP on
// loopback): GET /v1/dte/:id/aceptacion (?refresh=true), the acceptance worker, `dte.acceptance_changed` events
// and their signed webhook delivery.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { expectError } from "../../test/support/fixtures.js";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { emitBody, emitter, RECEPTOR } from "../../test/support/emission.js";
import { expectHeldAtOnce } from "../../test/support/sii-concurrency.js";
import { startReceiver } from "../../test/support/webhooks.js";
import { documents } from "../db/documents.js";
import { webhookDeliveries } from "../db/events.js";
import { createWebhookWorker } from "../jobs/deliver-webhooks.js";
import type { Pacer } from "../concurrency.js";
import { createAcceptanceWorker } from "../jobs/poll-acceptance.js";
import { CLAIM_WINDOW_MS, firstAcceptanceCheckMs } from "./acceptance.js";
import { refreshDocumentStatus } from "./refresh-document-status.js";
import { openSiiSession } from "./sii-session.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describeDrivers("receiver acceptance and claims (registry of Ley 19.983)", (driver) => {
  let h: Harness;
  let t: Awaited<ReturnType<typeof emitter>>;
  /** The server's clock, moved forward by tests; the sandbox SII keeps the real one. */
  let shift = 0;
  let firstCheck = 0;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", WEBHOOK_ALLOW_PRIVATE: "true" }, { now: () => new Date(Date.now() + shift) });
    t = await emitter(h, { tipos: [33, 39] });
    firstCheck = firstAcceptanceCheckMs(h.deps.config);
  }, 60_000);
  afterAll(async () => h?.close());

  /** Emits, and asks the SII until the document is accepted. */
  const accepted = async (tipo: number, razonSocial = RECEPTOR.razon_social) => {
    const body = tipo === 39 ? emitBody(39) : emitBody(tipo, { receptor: { ...RECEPTOR, razon_social: razonSocial } });
    const res = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body });
    expect(res.status).toBe(201);
    const id = res.json.data.id as string;
    expect((await refreshDocumentStatus(h.deps, id))?.estado).toBe("ACEPTADO");
    return { id, folio: res.json.data.folio as number };
  };
  const acceptance = async (id: string, refresh = false) => {
    const res = await h.call("GET", `/v1/dte/${id}/aceptacion${refresh ? "?refresh=true" : ""}`, { key: t.key.key });
    expect(res.status).toBe(200);
    return res.json.data;
  };
  const acceptanceEvents = async (id: string) => {
    const res = await h.call("GET", "/v1/events?event=dte.acceptance_changed&limit=100", { key: t.key.key });
    expect(res.status).toBe(200);
    return (res.json.data as Array<{ data: { dte_id: string } }>).filter((e) => e.data.dte_id === id);
  };

  test("a claimed factura: scheduled on acceptance, RECLAMADO on refresh with the receiver's RCD, one event", async () => {
    const before = Date.now();
    const { id, folio } = await accepted(33, "Cliente [sandbox:reclamo]");
    const [row] = await h.deps.db.select({ at: documents.acceptanceCheckAt }).from(documents).where(eq(documents.id, id));
    expect(row?.at?.getTime()).toBeGreaterThanOrEqual(before + firstCheck);
    expect(row?.at?.getTime()).toBeLessThanOrEqual(Date.now() + firstCheck);

    const first = await acceptance(id);
    expect(first).toMatchObject({ id, tipo: 33, folio, estado: "SIN_CONSULTAR", eventos: [], consultado_at: null });
    expect(first.proxima_consulta_at).toBe(row?.at?.toISOString());

    const claimed = await acceptance(id, true);
    expect(claimed.estado).toBe("RECLAMADO");
    expect(claimed.eventos).toHaveLength(1);
    expect(claimed.eventos[0]).toMatchObject({ codigo: "RCD", rut_responsable: RECEPTOR.rut });
    expect(claimed.eventos[0].descripcion).toContain("Reclamo");
    const received = Date.parse(claimed.recibido_sii_at);
    expect(Math.abs(received - before)).toBeLessThan(120_000);
    expect(Date.parse(claimed.plazo_hasta) - received).toBe(CLAIM_WINDOW_MS);
    expect(claimed.proxima_consulta_at).toBeNull();

    await acceptance(id, true);
    const recorded = await acceptanceEvents(id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ event: "dte.acceptance_changed", data: { dte_id: id, tipo: 33, folio, old_status: "SIN_RESPUESTA", new_status: "RECLAMADO" } });
    expect((recorded[0] as unknown as { data: { eventos: Array<{ codigo: string }> } }).data.eventos.map((e) => e.codigo)).toEqual(["RCD"]);
  }, 60_000);

  test("the worker asks when due: no answer yet, then the receiver accepts (ACD) and the webhook is delivered, signed", async () => {
    const receiver = startReceiver();
    try {
      const hook = await h.call("PUT", `/v1/businesses/${t.business.id}`, { token: t.user.token, body: { webhook_url: receiver.url } });
      expect(hook.status).toBe(200);
      const secret = hook.json.data.webhook_secret as string;
      expect(secret).toStartWith("whsec_");
      const { id, folio } = await accepted(33);
      const worker = createAcceptanceWorker(h.deps);
      expect((await worker.tick()).changed).toBe(false); // not due yet
      expect((await acceptance(id)).estado).toBe("SIN_CONSULTAR");

      shift = firstCheck + 1_000;
      expect(await worker.tick()).toEqual({ more: false, changed: false });
      const silent = await acceptance(id);
      expect(silent.estado).toBe("SIN_RESPUESTA");
      expect(Date.parse(silent.proxima_consulta_at)).toBe(Date.parse(silent.recibido_sii_at) + HOUR);

      const session = await openSiiSession(h.deps, t.business.id, "test");
      expect(await session.client.registerReceiverAction({ rutEmisor: session.business.rut, tipo: 33, folio, accion: "ACD" })).toMatchObject({ codigo: 0 });
      shift = DAY + 60_000;
      expect(await worker.tick()).toEqual({ more: false, changed: true });
      const done = await acceptance(id);
      expect(done.estado).toBe("ACEPTADO");
      expect(done.eventos.map((e: { codigo: string }) => e.codigo)).toEqual(["ACD"]);
      expect(done.proxima_consulta_at).toBeNull();

      // Back to the real time, which the receiver checks the signature's timestamp against; the delivery was due at
      // the moved clock's time, so it is made due now.
      shift = 0;
      await h.deps.db.update(webhookDeliveries).set({ dueAt: new Date() }).where(eq(webhookDeliveries.state, "pending"));
      const delivering = createWebhookWorker(h.deps);
      await delivering.tick();
      await delivering.idle();
      const mine = receiver.received.filter((r) => JSON.parse(r.body).event === "dte.acceptance_changed");
      expect(mine).toHaveLength(1);
      const verified = new Webhook(secret).verify(mine[0]!.body, mine[0]!.headers) as { data: Record<string, unknown> };
      expect(verified.data).toMatchObject({ dte_id: id, folio, old_status: "SIN_RESPUESTA", new_status: "ACEPTADO" });
    } finally {
      shift = 0;
      await h.call("PUT", `/v1/businesses/${t.business.id}`, { token: t.user.token, body: { webhook_url: null } });
      await receiver.stop();
    }
  }, 60_000);

  test("8 days without a claim: ACEPTADO_TACITO, settled", async () => {
    const { id } = await accepted(33);
    try {
      shift = CLAIM_WINDOW_MS + 3_600_000;
      const tacit = await acceptance(id, true);
      expect(tacit).toMatchObject({ estado: "ACEPTADO_TACITO", eventos: [], proxima_consulta_at: null });
      expect((await acceptanceEvents(id)).map((e) => (e as unknown as { data: { new_status: string } }).data.new_status)).toEqual(["ACEPTADO_TACITO"]);
    } finally {
      shift = 0;
    }
  }, 60_000);

  test("a round asks about 8 facturas at once, never more; each gets its answer", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await accepted(33)).id);
    const sandbox = (await h.deps.sii()).sandbox!;
    const worker = createAcceptanceWorker(h.deps);
    shift = firstCheck + 1_000;
    try {
      await expectHeldAtOnce(sandbox, "WSREGISTRORECLAMODTE", 8, () => worker.tick());
    } finally {
      shift = 0;
    }
    for (const id of ids) expect((await acceptance(id)).estado).toBe("SIN_RESPUESTA");
  }, 60_000);

  test("the worker starts a check only when its pacer lets it, however many are due", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await accepted(33)).id);
    const sandbox = (await h.deps.sii()).sandbox!;
    let tokens = 3;
    const waiting: Array<() => void> = [];
    const pacer: Pacer = {
      take: () => {
        if (tokens > 0) {
          tokens--;
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => waiting.push(resolve));
      },
    };
    const worker = createAcceptanceWorker(h.deps, { pacer });
    shift = firstCheck + 1_000;
    sandbox.faults.set({ mode: "hold", path: "WSREGISTRORECLAMODTE" });
    try {
      const running = worker.tick();
      for (let i = 0; i < 1_000 && sandbox.faults.held < 3; i++) await Bun.sleep(10);
      await Bun.sleep(100);
      expect(sandbox.faults.peakHeld).toBe(3); // 8 may run at once, but only 3 tokens were given
      expect(waiting.length).toBeGreaterThanOrEqual(2);
      sandbox.faults.clear();
      tokens = Number.POSITIVE_INFINITY;
      for (const resolve of waiting.splice(0)) resolve();
      await running;
    } finally {
      sandbox.faults.clear();
      shift = 0;
    }
    for (const id of ids) expect((await acceptance(id)).estado).toBe("SIN_RESPUESTA");
  }, 60_000);

  test("a factura the SII has not accepted yet: SIN_CONSULTAR, and a refresh asks nothing", async () => {
    const res = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body: emitBody(33) });
    expect(res.json.data.estado).toBe("ENVIADO");
    const answer = await acceptance(res.json.data.id, true);
    expect(answer).toMatchObject({ estado: "SIN_CONSULTAR", consultado_at: null, proxima_consulta_at: null });
  }, 60_000);

  test("boletas are not in the registry: NO_APLICA, the SII is not asked", async () => {
    const { id } = await accepted(39);
    const answer = await acceptance(id, true);
    expect(answer).toMatchObject({ estado: "NO_APLICA", eventos: [], consultado_at: null, proxima_consulta_at: null });
    const [row] = await h.deps.db.select({ at: documents.acceptanceCheckAt }).from(documents).where(eq(documents.id, id));
    expect(row?.at).toBeNull();
  }, 60_000);

  test("the SII unavailable on refresh: nothing lost, asked again in an hour", async () => {
    const { id } = await accepted(33);
    const sandbox = (await h.deps.sii()).sandbox!;
    sandbox.faults.set({ mode: "down", path: "WSREGISTRORECLAMODTE" });
    try {
      const answer = await acceptance(id, true);
      expect(answer.estado).toBe("SIN_CONSULTAR");
      expect(Date.parse(answer.proxima_consulta_at) - Date.now()).toBeGreaterThan(3_500_000);
      expect(h.logs.some((l) => l.includes("acceptance.unanswered") && l.includes(id))).toBe(true);
    } finally {
      sandbox.faults.clear();
    }
    expect((await acceptance(id, true)).estado).toBe("SIN_RESPUESTA");
  }, 60_000);

  test("GET /v1/dte?aceptacion=RECLAMADO lists the claimed facturas only; an unknown value is 400", async () => {
    const { id } = await accepted(33, "Otro [sandbox:reclamo]");
    await acceptance(id, true);
    const { id: plain } = await accepted(33);
    await acceptance(plain, true);
    const claimed = await h.call("GET", "/v1/dte?aceptacion=RECLAMADO&limit=100", { key: t.key.key });
    expect(claimed.status).toBe(200);
    const ids = claimed.json.data.map((d: { id: string }) => d.id);
    expect(ids).toContain(id);
    expect(ids).not.toContain(plain);
    for (const other of ids) expect((await acceptance(other)).estado).toBe("RECLAMADO");
    const waiting = await h.call("GET", "/v1/dte?aceptacion=SIN_RESPUESTA&limit=100", { key: t.key.key });
    expect(waiting.json.data.map((d: { id: string }) => d.id)).toContain(plain);
    expectError(await h.call("GET", "/v1/dte?aceptacion=RECLAMADA", { key: t.key.key }), 400, "INVALID_PARAMETER");
  }, 60_000);

  test("unknown document 404; a bad refresh flag 400", async () => {
    expectError(await h.call("GET", "/v1/dte/dte_nope/aceptacion", { key: t.key.key }), 404, "NOT_FOUND");
    const { id } = await accepted(33);
    expectError(await h.call("GET", `/v1/dte/${id}/aceptacion?refresh=maybe`, { key: t.key.key }), 400, "INVALID_PARAMETER");
  }, 60_000);
});

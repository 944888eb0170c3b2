import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeDrivers, createHarness, type Harness } from "../../test/support/harness.js";
import { emitBody, emitter, RECEPTOR } from "../../test/support/emission.js";
import { eq } from "drizzle-orm";
import { documents } from "../db/documents.js";
import { refreshDocumentStatus } from "./refresh-document-status.js";
import { OVERDUE_CHECKS, STALE_CHECKS } from "./sii-session.js";

describeDrivers("SII outcomes through refreshDocumentStatus", (driver) => {
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    key = (await emitter(h, { tipos: [33, 39] })).key.key;
  }, 60_000);
  afterAll(async () => h?.close());

  const emit = async (tipo: number, razonSocial: string) => {
    const receptor = tipo === 39 ? { rut: "66666666-6", razon_social: razonSocial } : { ...RECEPTOR, razon_social: razonSocial };
    const res = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(tipo, { receptor }) });
    expect(res.status).toBe(201);
    return res.json.data.id as string;
  };

  for (const tipo of [33, 39]) {
    test(`${tipo}: [sandbox:reparos] → ACEPTADO_CON_REPAROS`, async () => {
      const id = await emit(tipo, "Cliente [sandbox:reparos]");
      const status = await h.call("GET", `/v1/dte/${id}/status?refresh=true`, { key });
      expect(status.status).toBe(200);
      expect(status.json.data.estado).toBe("ACEPTADO_CON_REPAROS");
      expect(status.json.data.sii.reparos).toBe(1);
      expect(status.json.data.sii.errores.length).toBeGreaterThan(0);
      if (tipo === 39) expect(status.json.data.sii.errores[0].codigo).toBe("HED-1-863");
    }, 30_000);

    test(`${tipo}: [sandbox:rechazo] → RECHAZADO with the code and a hint in /status`, async () => {
      const id = await emit(tipo, "Cliente [sandbox:rechazo]");
      const after = await refreshDocumentStatus(h.deps, id);
      expect(after?.estado).toBe("RECHAZADO");
      const status = await h.call("GET", `/v1/dte/${id}/status`, { key });
      const sii = status.json.data.sii;
      expect(sii).toMatchObject({ estado_envio: "EPR", rechazados: 1, aceptados: 0 });
      const error = sii.errores[0];
      // boletas carry the SII's per-document detail; EnvioDTE only counts (the SII mails the detail)
      expect(error.codigo).toBe(tipo === 39 ? "HED-3-305" : "RCH");
      expect(error.descripcion.length).toBeGreaterThan(3);
      expect(error.ayuda.length).toBeGreaterThan(10);
      const last = status.json.data.historial.at(-1);
      expect(last.estado).toBe("RECHAZADO");
      expect(last.detalle).toContain("rechazado");
    }, 30_000);
  }

  test("a mixed envelope is resolved per document", async () => {
    const bodies = [emitBody(33), emitBody(33, { receptor: { ...RECEPTOR, razon_social: "X [sandbox:rechazo]" } }), emitBody(33)];
    const res = await h.call("POST", "/v1/dte/batch", { key, body: { documents: bodies } });
    expect(res.status).toBe(200);
    const ids: string[] = res.json.data.results.map((r: { data: { id: string } }) => r.data.id);
    const tracks = new Set(res.json.data.results.map((r: { data: { track_id: string } }) => r.data.track_id));
    expect(tracks.size).toBe(1);
    const states = [];
    for (const id of ids) states.push((await refreshDocumentStatus(h.deps, id))?.estado);
    expect(states).toEqual(["ACEPTADO", "RECHAZADO", "ACEPTADO"]);
  }, 30_000);

  const batchStates = async (names: string[]) => {
    const bodies = names.map((name) => emitBody(33, { receptor: { ...RECEPTOR, razon_social: name } }));
    const res = await h.call("POST", "/v1/dte/batch", { key, body: { documents: bodies } });
    expect(res.status).toBe(200);
    const ids: string[] = res.json.data.results.map((r: { data: { id: string } }) => r.data.id);
    expect(new Set(res.json.data.results.map((r: { data: { track_id: string } }) => r.data.track_id)).size).toBe(1);
    const states = [];
    for (const id of ids) states.push((await refreshDocumentStatus(h.deps, id))?.estado);
    return { ids, states };
  };

  test("a mixed envelope whose only accepted document carries the reparo: ACEPTADO_CON_REPAROS (the counts say so)", async () => {
    const { ids, states } = await batchStates(["X [sandbox:rechazo]", "Y [sandbox:reparos]"]);
    expect(states).toEqual(["RECHAZADO", "ACEPTADO_CON_REPAROS"]);
    const status = await h.call("GET", `/v1/dte/${ids[1]}/status`, { key });
    expect(status.json.data.sii).toMatchObject({ estado_envio: "EPR", reparos: 1, rechazados: 1 });
    expect(status.json.data.sii.errores[0].codigo).toBe("RPR");
  }, 30_000);

  test("a mixed envelope where some accepted documents carry reparos: ACEPTADO, and /status says how many have reparos", async () => {
    const { ids, states } = await batchStates(["Cliente", "Y [sandbox:reparos]"]);
    expect(states).toEqual(["ACEPTADO", "ACEPTADO"]);
    for (const id of ids) {
      const status = await h.call("GET", `/v1/dte/${id}/status`, { key });
      expect(status.json.data.sii.reparos).toBe(1);
      expect(status.json.data.sii.errores[0].codigo).toBe("RPR");
      expect(status.json.data.sii.errores[0].descripcion).toContain("1 de los 2");
    }
  }, 30_000);

  test("a document the SII never settles (-11: the envelope is not this company's) is not asked every 10 minutes forever: hourly once overdue, then every 6 hours, reported each time", async () => {
    const id = await emit(33, "Cliente");
    const check = async (attemptsBefore: number) => {
      await h.deps.db.update(documents).set({ trackId: "9999999999", checkAttempts: attemptsBefore }).where(eq(documents.id, id));
      const logged = h.logs.length;
      const at = Date.now();
      const after = await refreshDocumentStatus(h.deps, id);
      expect(after?.estado).toBe("ENVIADO");
      expect(after?.checkAttempts).toBe(attemptsBefore + 1);
      const overdue = h.logs.slice(logged).filter((line) => line.includes("sii.status_overdue"));
      return { waitMin: ((after?.nextCheckAt?.getTime() ?? 0) - at) / 60_000, overdue };
    };
    const early = await check(OVERDUE_CHECKS - 2);
    expect(early.waitMin).toBeLessThanOrEqual(10);
    expect(early.overdue).toEqual([]);
    const overdue = await check(OVERDUE_CHECKS - 1);
    expect(overdue.waitMin).toBeGreaterThan(59);
    expect(overdue.waitMin).toBeLessThan(61);
    expect(overdue.overdue).toHaveLength(1);
    expect(overdue.overdue[0]).toContain(id);
    expect(overdue.overdue[0]).toContain("-11");
    const stale = await check(STALE_CHECKS - 1);
    expect(stale.waitMin).toBeGreaterThan(359);
    expect(stale.waitMin).toBeLessThan(361);
  }, 30_000);
});

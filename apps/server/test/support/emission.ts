/** Emission scenarios: a business with a certificate and sandbox CAFs, request bodies, and a real HTTP client. */
import { expect } from "bun:test";
import { generateTestCertificate } from "@timbre/core/testing";
import { openSiiSession } from "../../src/dispatch/sii-session.js";
import { waitForSubmissions } from "../../src/dispatch/submit-documents.js";
import type { CallOptions, CallResult, Harness } from "./harness.js";
import { tenant } from "./fixtures.js";

const PASSWORD = "clave";
let p12: Promise<Uint8Array> | null = null;

/** One RSA-2048 test certificate per test file (key generation is slow). */
export function testCertificate(): Promise<Uint8Array> {
  p12 ??= generateTestCertificate({
    rut: "11111111-1",
    name: "ANA PEREZ",
    password: PASSWORD,
    validFrom: new Date(Date.now() - 30 * 24 * 3600 * 1000),
    validTo: new Date(Date.now() + 365 * 24 * 3600 * 1000),
  }).then((c) => c.p12);
  return p12;
}

export async function uploadCertificate(h: Harness, businessId: string, key: string): Promise<void> {
  const res = await h.call("POST", `/v1/businesses/${businessId}/certificate`, { key, body: { pfx_base64: Buffer.from(await testCertificate()).toString("base64"), password: PASSWORD } });
  expect(res.status).toBe(200);
}

export async function issueFolios(h: Harness, key: string, tipo: number, cantidad = 100): Promise<void> {
  const res = await h.call("POST", "/v1/sandbox/numerations", { key, body: { tipo, cantidad } });
  expect(res.status).toBe(201);
}

/** A tenant ready to emit: certificate plus CAFs of the given tipos. */
export async function emitter(h: Harness, options: { tipos?: number[]; rut?: string; cantidad?: number } = {}) {
  const t = await tenant(h, options.rut);
  await uploadCertificate(h, t.business.id, t.key.key);
  for (const tipo of options.tipos ?? [33, 34, 39, 41, 56, 61]) await issueFolios(h, t.key.key, tipo, options.cantidad ?? 100);
  return t;
}

export const RECEPTOR = {
  rut: "60803000-K",
  razon_social: "Cliente de Prueba Ltda",
  giro: "Comercio",
  direccion: "Calle Falsa 123",
  comuna: "Santiago",
};

/** A valid emission body of `tipo` (notes need `referencia` from the caller). */
export function emitBody(tipo: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const receipt = tipo === 39 || tipo === 41;
  return {
    tipo,
    receptor: receipt ? { rut: "66666666-6", razon_social: "Consumidor final" } : RECEPTOR,
    items: [
      { nombre: "Servicio de consultoría", cantidad: 2, precio: 50000 },
      { nombre: "Licencia", cantidad: 1.5, precio: 10000.5, descuento_porcentaje: 10 },
    ],
    ...(receipt ? { precios_brutos: true } : {}),
    ...overrides,
  };
}

/** Emits `count` documents made by `body` through `POST /v1/dte/batch`, 500 a request; the ids of those emitted. */
export async function emitInBatches(h: Harness, key: string, count: number, body: () => Record<string, unknown>): Promise<string[]> {
  const ids: string[] = [];
  for (let from = 0; from < count; from += 500) {
    const documents = Array.from({ length: Math.min(500, count - from) }, body);
    const res = await h.call("POST", "/v1/dte/batch", { key, body: { documents } });
    if (res.status !== 200) throw new Error(`batch ${res.status}: ${res.text}`);
    for (const r of res.json.data.results as Array<{ success: boolean; data: { id: string } }>) if (r.success) ids.push(r.data.id);
  }
  return ids;
}

/** Sends requests to the app over real HTTP (Bun.serve on a loopback port). */
export function serveOverHttp(h: Harness) {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => h.app.handle(req), idleTimeout: 120 });
  const base = `http://127.0.0.1:${server.port}`;
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<CallResult & { bytes: Uint8Array }> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers["x-api-key"] = options.key;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: BodyInit | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(`${base}${path}`, { method, headers, body });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: response.status, headers: response.headers, json, text, bytes };
  };
  return { call, close: () => server.stop(true) };
}

/**
 * Emits a factura while the in-process sandbox refuses even authentication: 202 PENDIENTE, its envelope `failed`
 * (certainly not sent) and the document in no envelope, waiting for the dispatcher. Returns the document's id.
 */
export async function emitWhileSiiRefusesAuthentication(h: Harness, key: string, businessId: string): Promise<string> {
  const gateway = await h.deps.sii();
  if (!gateway.sandbox) throw new Error("no in-process sandbox");
  (await openSiiSession(h.deps, businessId, "test")).client.invalidateTokens();
  gateway.sandbox.faults.set({ mode: "http500" });
  try {
    const res = await h.call("POST", "/v1/dte/emit", { key, body: emitBody(33) });
    await waitForSubmissions(h.deps);
    expect(res.status).toBe(202);
    return res.json.data.id as string;
  } finally {
    gateway.sandbox.faults.clear();
  }
}

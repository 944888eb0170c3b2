import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { TimbreError } from "@timbre/core/errors";
import type { PrintableDocument } from "@timbre/core/pdf";
import { computeTotals } from "@timbre/core/totals";
import { PoolFull, PoolTimeout } from "../threads/worker-pool.js";
import { startPdfThreads, type PdfRenderer, type PdfThreadsOptions } from "./pdf-threads.js";
import { rejection } from "../../test/support/rejection.js";

// a thread's first render loads pdf-lib and compiles the renderer: seconds on a busy machine
setDefaultTimeout(60_000);

const SPINNING = new URL("../../test/support/spinning-pdf-worker.ts", import.meta.url);
const SLOW_START = new URL("../../test/support/slow-start-pdf-worker.ts", import.meta.url);
/** The pause that worker makes before it loads. */
const LOAD_PAUSE_MS = 1_500;

function boleta(ted: string | null = null): PrintableDocument {
  const input = {
    tipo: 39 as const,
    folio: 1,
    fecha: "2026-11-20",
    issuer: { rut: "76192083-9", razonSocial: "SASCO SpA", giro: "Software", acteco: [726000], direccion: "Av. Providencia 1234", comuna: "Providencia" },
    receiver: { rut: "66666666-6", razonSocial: "Consumidor final" },
    preciosBrutos: true,
    items: [{ nombre: "Café en grano", cantidad: 2, precio: 4990 }],
  };
  return { input, totals: computeTotals(input), ted, resolution: null };
}

const isPdf = (bytes: Uint8Array): boolean => new TextDecoder().decode(bytes.subarray(0, 5)) === "%PDF-";

let pool: PdfRenderer | null = null;
const open = (options: Partial<PdfThreadsOptions>): PdfRenderer =>
  (pool = startPdfThreads({ threads: 1, timeoutMs: 30_000, perTenant: 2, queueLimit: 16, ...options }));
afterEach(async () => {
  await pool?.close();
  pool = null;
});

describe("PDF threads", () => {
  test("one business holds at most N renders; beyond them it is refused at once, others are not, and it may render again after", async () => {
    const threads = open({ perTenant: 2 });
    const mine = [threads.render("bus_a", boleta(), { preview: true }), threads.render("bus_a", boleta(), { preview: true })];
    const third = await rejection(threads.render("bus_a", boleta(), { preview: true }));
    expect(third).toBeInstanceOf(PoolFull);
    expect((third as PoolFull).scope).toBe("tenant");
    expect((third as PoolFull).retryAfterS).toBeGreaterThanOrEqual(1);
    const other = threads.render("bus_b", boleta(), { preview: true });
    for (const pdf of await Promise.all([...mine, other])) expect(isPdf(pdf)).toBe(true);
    expect(isPdf(await threads.render("bus_a", boleta(), { formato: "termica", preview: true }))).toBe(true);
  });

  test("the queue of all businesses is bounded too", async () => {
    const threads = open({ threads: 1, queueLimit: 1, perTenant: 5 });
    const rendering = threads.render("bus_a", boleta(), { preview: true });
    const waiting = threads.render("bus_b", boleta(), { preview: true });
    const refused = await rejection(threads.render("bus_c", boleta(), { preview: true }));
    expect(refused).toBeInstanceOf(PoolFull);
    expect((refused as PoolFull).scope).toBe("server");
    expect(isPdf(await rendering)).toBe(true);
    expect(isPdf(await waiting)).toBe(true);
  });

  test("a render past its time limit fails with PoolTimeout; its thread is replaced and the next renders", async () => {
    const threads = open({ threads: 1, timeoutMs: 3_000, workerUrl: SPINNING });
    const started = performance.now();
    const stuck = threads.render("bus_a", boleta("spin"), { preview: true });
    const queued = threads.render("bus_b", boleta(), { preview: true });
    const error = await rejection(stuck);
    expect(error).toBeInstanceOf(PoolTimeout);
    expect((error as PoolTimeout).limitMs).toBe(3_000);
    expect(performance.now() - started).toBeLessThan(20_000);
    // the job queued behind the stuck one runs on the fresh thread; the business's hold was released
    expect(isPdf(await queued)).toBe(true);
    expect(isPdf(await threads.render("bus_a", boleta(), { preview: true }))).toBe(true);
  });

  test("what the renderer throws comes back as core's error, not a crash", async () => {
    const threads = open({});
    const error = await rejection(threads.render("bus_a", boleta("<TED>\u{1F600}</TED>"), {}));
    expect(error).toBeInstanceOf(TimbreError);
    expect((error as TimbreError).code).toBe("CHARSET");
    expect(isPdf(await threads.render("bus_a", boleta(), { preview: true }))).toBe(true);
  });

  test("close fails what waits and stops the threads", async () => {
    const threads = open({ threads: 1, workerUrl: SPINNING });
    const stuck = threads.render("bus_a", boleta("spin"), { preview: true });
    const waiting = threads.render("bus_b", boleta(), { preview: true });
    await threads.close();
    expect(String(await rejection(stuck))).toContain("closed");
    expect(String(await rejection(waiting))).toContain("closed");
  });
  test("warm() starts the thread before the first render: that render does not wait for the thread to load", async () => {
    const timedFirst = async (threads: PdfRenderer): Promise<number> => {
      const started = performance.now();
      expect(isPdf(await threads.render("bus_a", boleta(), { preview: true }))).toBe(true);
      return performance.now() - started;
    };
    const cold = await timedFirst(open({ workerUrl: SLOW_START }));
    await pool?.close();
    const warmed = open({ workerUrl: SLOW_START });
    warmed.warm();
    // loaded meanwhile: the pause, then pdf-lib, which the cold render also waited for
    await Bun.sleep(cold);
    const warm = await timedFirst(warmed);
    expect(cold).toBeGreaterThan(LOAD_PAUSE_MS);
    expect(warm).toBeLessThan(cold - LOAD_PAUSE_MS);
  });
});

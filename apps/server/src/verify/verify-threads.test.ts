import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { encodeLatin1, verifyReceivedEnvelope } from "@timbre/core";
import type { AuthorityKey } from "@timbre/core/caf";
import { receivedEnvelopeMaker, type ReceivedEnvelopeMaker } from "../../tests/support/received-envelopes.js";
import { PoolFull, PoolTimeout } from "../threads/worker-pool.js";
import { startVerifyThreads, type EnvelopeVerifier, type VerifyThreadsOptions } from "./verify-threads.js";
import { rejection } from "../../test/support/rejection.js";

// a thread's first envelope loads core and the schemas: seconds on a busy machine
setDefaultTimeout(60_000);

const SPINNING = new URL("../../test/support/spinning-verify-worker.ts", import.meta.url);
const RECEIVER = "77777777-7";

let maker: ReceivedEnvelopeMaker;
let authorities: AuthorityKey[];
let small: Uint8Array;
beforeAll(async () => {
  maker = await receivedEnvelopeMaker();
  authorities = [{ idk: 100, publicKey: maker.authority.publicKey }];
  small = encodeLatin1(maker.envelope(RECEIVER, 2));
});

let pool: EnvelopeVerifier | null = null;
const open = (options: Partial<VerifyThreadsOptions>): EnvelopeVerifier =>
  (pool = startVerifyThreads({ threads: 1, timeoutMs: 30_000, perTenant: 2, queueLimit: 16, ...options }));
afterEach(async () => {
  await pool?.close();
  pool = null;
});
afterAll(async () => pool?.close());

describe("verification threads", () => {
  test("an envelope checked on a thread gives what core gives in process; schema and format refusals come back as results", async () => {
    const threads = open({});
    const result = await threads.verify("bus_a", small, RECEIVER, authorities);
    expect(result).toEqual(verifyReceivedEnvelope(small, { rutReceptor: RECEIVER, authorities, crossCheck: false }));
    expect(result.ok && result.documents.map((d) => [d.folio, d.verified, d.verificacion.firma_variante])).toEqual([[1, true, "separado"], [2, true, "separado"]]);
    // an unknown element inside the signed content: well-formed and still signed, but not EnvioDTE_v10.xsd
    const text = new TextDecoder("latin1").decode(small).replace("<Caratula version=\"1.0\">", "<Caratula version=\"1.0\"><Extra/>");
    const schema = await threads.verify("bus_a", encodeLatin1(text), RECEIVER, authorities);
    expect(schema).toMatchObject({ ok: false, reason: "schema" });
    expect(await threads.verify("bus_a", new TextEncoder().encode("<EnvioDTE"), RECEIVER, authorities)).toMatchObject({ ok: false, reason: "format" });
    // the authority travels as key bytes: without it the CAF is unknown
    const unknown = await threads.verify("bus_a", small, RECEIVER, []);
    expect(unknown.ok && unknown.documents[0]?.verificacion.caf).toBe("autoridad_desconocida");
  });

  test("one business holds at most N envelopes; beyond them it is refused at once, others are not, and it may verify again after", async () => {
    const threads = open({ perTenant: 2 });
    const mine = [threads.verify("bus_a", small, RECEIVER, authorities), threads.verify("bus_a", small, RECEIVER, authorities)];
    const third = await rejection(threads.verify("bus_a", small, RECEIVER, authorities));
    expect(third).toBeInstanceOf(PoolFull);
    expect((third as PoolFull).scope).toBe("tenant");
    expect((third as PoolFull).retryAfterS).toBeGreaterThanOrEqual(1);
    const other = threads.verify("bus_b", small, RECEIVER, authorities);
    for (const result of await Promise.all([...mine, other])) expect(result.ok).toBe(true);
    expect((await threads.verify("bus_a", small, RECEIVER, authorities)).ok).toBe(true);
  });

  test("the queue of all businesses is bounded too", async () => {
    const threads = open({ threads: 1, queueLimit: 1, perTenant: 5 });
    const verifying = threads.verify("bus_a", small, RECEIVER, authorities);
    const waiting = threads.verify("bus_b", small, RECEIVER, authorities);
    const refused = await rejection(threads.verify("bus_c", small, RECEIVER, authorities));
    expect(refused).toBeInstanceOf(PoolFull);
    expect((refused as PoolFull).scope).toBe("server");
    expect((await verifying).ok).toBe(true);
    expect((await waiting).ok).toBe(true);
  });

  test("an envelope past its time limit fails with PoolTimeout; its thread is replaced and the next envelope verifies", async () => {
    const threads = open({ threads: 1, timeoutMs: 2_000, workerUrl: SPINNING });
    const stuck = threads.verify("bus_a", small, "spin", authorities);
    const queued = threads.verify("bus_b", small, RECEIVER, authorities);
    const error = await rejection(stuck);
    expect(error).toBeInstanceOf(PoolTimeout);
    expect((error as PoolTimeout).limitMs).toBe(2_000);
    // the envelope queued behind the stuck one runs on the fresh thread; the business's hold was released
    expect((await queued).ok).toBe(true);
    expect((await threads.verify("bus_a", small, RECEIVER, authorities)).ok).toBe(true);
  });

  test("close fails what waits and stops the threads", async () => {
    const threads = open({ threads: 1, workerUrl: SPINNING });
    const stuck = threads.verify("bus_a", small, "spin", authorities);
    const waiting = threads.verify("bus_b", small, RECEIVER, authorities);
    await threads.close();
    expect(String(await rejection(stuck))).toContain("closed");
    expect(String(await rejection(waiting))).toContain("closed");
  });
});

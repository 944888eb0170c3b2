import { expect, test } from "bun:test";
import { sign, verify } from "node:crypto";
import { loadPkcs12 } from "@timbre/core/certificates";
import { TimbreError } from "@timbre/core/errors";
import { generateTestCertificate, withMacIterations } from "@timbre/core/testing";
import { certificateThreads } from "./certificate-threads.js";

const SPINNING = new URL("../../../test/support/spinning-certificate-worker.ts", import.meta.url);
const made = await generateTestCertificate({ rut: "11111111-1", name: "JUAN PÉREZ", validFrom: new Date("2026-01-01"), validTo: new Date("2027-01-01"), password: "ñandú" });

async function refusal(p: Promise<unknown>): Promise<Record<string, unknown>> {
  const thrown = await p.then(() => null, (e: unknown) => e);
  if (!(thrown instanceof TimbreError)) throw new Error(`expected CERTIFICATE_INVALID, got ${String(thrown)}`);
  expect(thrown.code).toBe("CERTIFICATE_INVALID");
  return thrown.details ?? {};
}

test("a file read on its thread gives what loadPkcs12 gives here, with a usable key; core's refusals come back as they are", async () => {
  const loader = certificateThreads();
  const [there, here] = await Promise.all([loader.load(made.p12, "ñandú"), loadPkcs12(made.p12, "ñandú")]);
  const { privateKey: hereKey, certificateDer: _der, ...hereFields } = here;
  const { privateKey: thereKey, ...thereFields } = there;
  expect(thereFields).toEqual(hereFields);
  const signature = sign("sha256", Buffer.from("hola"), thereKey);
  expect(verify("sha256", Buffer.from("hola"), there.certificatePem, signature)).toBe(true);
  expect(thereKey.export({ format: "pem", type: "pkcs8" })).toBe(hereKey.export({ format: "pem", type: "pkcs8" }));
  expect(await refusal(loader.load(made.p12, "otra"))).toMatchObject({ reason: "password" });
  expect(await refusal(loader.load(new Uint8Array([1, 2, 3]), "x"))).toMatchObject({ reason: "format" });
}, 30_000);

test("a file asking for too much derivation work is refused here, before any thread: the spinning one is never reached", async () => {
  const loader = certificateThreads({ timeLimitMs: 5_000, concurrency: 1, workerUrl: SPINNING });
  expect(await refusal(loader.load(withMacIterations(made.p12, 2 ** 31 - 1), "ñandú"))).toMatchObject({ reason: "iterations", where: "mac" });
});

test("a read that does not end in time is ended: reason timeout, and this thread kept turning meanwhile", async () => {
  const loader = certificateThreads({ timeLimitMs: 300, workerUrl: SPINNING });
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 10);
  try {
    expect(await refusal(loader.load(made.p12, "ñandú"))).toEqual({ reason: "timeout", limit_ms: 300 });
  } finally {
    clearInterval(ticker);
  }
  expect(ticks).toBeGreaterThan(5);
});

test("reads beyond the concurrency wait for a slot: each still gets its own answer", async () => {
  const loader = certificateThreads({ timeLimitMs: 200, concurrency: 1, workerUrl: SPINNING });
  const results = await Promise.all([1, 2, 3].map(() => refusal(loader.load(made.p12, "ñandú"))));
  expect(results.map((d) => d["reason"])).toEqual(["timeout", "timeout", "timeout"]);
});

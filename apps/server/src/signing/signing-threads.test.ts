import { afterAll, describe, expect, test } from "bun:test";
import { isTimbreError, ValidationError } from "@timbre/core/errors";
import { verifyDte, verifyEnvelope } from "@timbre/core/signature";
import { computeTotals } from "@timbre/core/totals";
import type { DocumentInput } from "@timbre/core/document";
import type { EnvelopeOptions, SignedDteOptions } from "@timbre/core/xml";
import { documentSigner, inlineSigner, signAll, type SignResult } from "./document-signer.js";
import { startSigningThreads } from "./signing-threads.js";

const fixtures = (await import(new URL("../../../../packages/core/test/support/signing-fixtures.ts", import.meta.url).href)) as {
  cafFor: (tipo: number) => SignedDteOptions["caf"];
  sampleIdentity: () => SignedDteOptions["identity"];
  SAMPLE_T33: DocumentInput;
  SAMPLE_T39: DocumentInput;
  SAMPLE_TIMESTAMP: string;
};

const job = (input: DocumentInput, folio: number): SignedDteOptions => {
  const withFolio = { ...input, folio };
  return { input: withFolio, totals: computeTotals(withFolio), caf: fixtures.cafFor(input.tipo), identity: fixtures.sampleIdentity(), timestamp: fixtures.SAMPLE_TIMESTAMP };
};

const threads = startSigningThreads(2);
afterAll(() => threads.close());

describe("signing threads", () => {
  test("sign the same bytes as this thread, in order, over two threads", async () => {
    const jobs = Array.from({ length: 9 }, (_, i) => job(i % 2 === 0 ? fixtures.SAMPLE_T33 : fixtures.SAMPLE_T39, i + 1));
    const [here, there] = await Promise.all([signAll(inlineSigner, jobs), signAll(threads, jobs)]);
    expect(there.map((s) => s.documentId)).toEqual(jobs.map((j) => `T${j.input.tipo}F${j.input.folio}`));
    expect(there).toEqual(here);
    for (const signed of there) expect(verifyDte(signed.xml).valid).toBe(true);
  });

  test("a job's error comes back as core's error, the other jobs are signed", async () => {
    const wrongCaf = { ...job(fixtures.SAMPLE_T33, 3), caf: fixtures.cafFor(39) };
    const invalid = job({ ...fixtures.SAMPLE_T33, items: [] }, 4);
    const results = await threads.sign([job(fixtures.SAMPLE_T33, 2), wrongCaf, invalid]);
    expect(results[0]?.ok).toBe(true);
    const caf = results[1];
    expect(caf?.ok === false && isTimbreError(caf.error, "CAF_INVALID")).toBe(true);
    const validation = results[2];
    expect(validation?.ok === false && validation.error instanceof ValidationError).toBe(true);
    if (validation?.ok === false && validation.error instanceof ValidationError) {
      expect(validation.error.issues.map((i) => i.path)).toContain("items");
    }
    // Not `await expect(…).rejects`: bun:test waits for that promise in a loop of its own that does not take the
    // threads' answers, and the test then stalls until its timeout (seen one run in three).
    const thrown = await signAll(threads, [wrongCaf]).then(() => null, (error: unknown) => error);
    expect(isTimbreError(thrown, "CAF_INVALID")).toBe(true);
  });

  test("an envelope built on a thread is the one built here, and verifies; its error comes back as core's", async () => {
    const signed = await signAll(inlineSigner, [1, 2, 3].map((folio) => job(fixtures.SAMPLE_T33, 20 + folio)));
    const options: EnvelopeOptions = {
      kind: "EnvioDTE",
      rutEmisor: "76192083-9",
      rutEnvia: "11111111-1",
      resolution: { numero: 0, fecha: "2014-08-22" },
      dtes: signed.map((s) => s.xml),
      identity: fixtures.sampleIdentity(),
      timestamp: fixtures.SAMPLE_TIMESTAMP,
    };
    const [here, there] = await Promise.all([inlineSigner.signEnvelope(options), threads.signEnvelope(options)]);
    expect(there).toBe(here);
    expect(verifyEnvelope(there).valid).toBe(true);
    const thrown = await threads.signEnvelope({ ...options, kind: "EnvioBOLETA" }).then(() => null, (error: unknown) => error);
    expect(isTimbreError(thrown)).toBe(true);
    expect(String(thrown)).toContain("does not belong in an EnvioBOLETA");
  });

  test("a renewed certificate on the same key is sent again, not taken from the thread's memory", async () => {
    const first = job(fixtures.SAMPLE_T33, 5);
    const otherDer = new Uint8Array([...first.identity.certificateDer]);
    const last = otherDer.length - 1;
    otherDer[last] = (otherDer[last] ?? 0) ^ 1; // another certificate body for the same key object
    const [a, b] = await signAll(threads, [first, { ...first, identity: { ...first.identity, certificateDer: otherDer } }]);
    expect(a?.xml).not.toBe(b?.xml);
    expect(b?.xml).toContain(Buffer.from(otherDer).toString("base64").slice(-20));
  });

  test("the calls of one turn travel in one message per thread, and each call gets its own jobs' results", async () => {
    const counting = startSigningThreads(2, { workerUrl: new URL("../../test/support/counting-signing-worker.ts", import.meta.url) });
    const answered = (results: SignResult[]) => results.map((r) => (r.ok ? "signed" : String((r.error as Error).message)));
    // One job, then four: five jobs split 3 + 2 over the two threads, the second call's across both.
    const [first, second] = await Promise.all([counting.sign([job(fixtures.SAMPLE_T33, 1)]), counting.sign([2, 3, 4, 5].map((f) => job(fixtures.SAMPLE_T33, f)))]);
    expect(answered(first)).toEqual(["folio 1 in a message of 3"]);
    expect(answered(second)).toEqual(["folio 2 in a message of 3", "folio 3 in a message of 3", "folio 4 in a message of 2", "folio 5 in a message of 2"]);
    // A call of a later turn goes alone.
    expect(answered(await counting.sign([job(fixtures.SAMPLE_T33, 6)]))).toEqual(["folio 6 in a message of 1"]);
    await counting.close();
  });

  test("a thread that does not answer in time fails its jobs and is replaced", async () => {
    const silent = startSigningThreads(1, { answerWithinMs: 200, workerUrl: new URL("../../test/support/silent-signing-worker.ts", import.meta.url) });
    for (const folio of [8, 9]) {
      const thrown = await silent.sign([job(fixtures.SAMPLE_T33, folio)]).then(() => null, (error: unknown) => error);
      expect(String(thrown)).toContain("did not answer within 200 ms");
    }
    await silent.close();
  });

  test("apps of one process share a pool per thread count; another count does not close it", async () => {
    expect(documentSigner(0)).toBe(inlineSigner);
    const one = documentSigner(1);
    expect(documentSigner(1)).toBe(one);
    expect(documentSigner(3)).not.toBe(one);
    const [signed] = await signAll(one, [job(fixtures.SAMPLE_T39, 10)]);
    expect(signed?.documentId).toBe("T39F10");
  });

  test("closed threads refuse work, also a call made before the close that was still waiting for its turn to end", async () => {
    const closing = startSigningThreads(1);
    await signAll(closing, [job(fixtures.SAMPLE_T39, 6)]);
    const waiting = closing.sign([job(fixtures.SAMPLE_T39, 7)]).then(() => null, (error: unknown) => error);
    await closing.close();
    expect(String(await waiting)).toContain("closed");
    const thrown = await closing.sign([job(fixtures.SAMPLE_T39, 8)]).then(() => null, (error: unknown) => error);
    expect(String(thrown)).toContain("closed");
  });
});

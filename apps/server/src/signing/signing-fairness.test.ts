/**
 * The signing threads are shared fairly between businesses (issue 41): a business whose batch fills the queue does
 * not hold another business's emission behind all of it. Asserted on the order jobs complete in, not on time.
 */
import { afterAll, expect, test } from "bun:test";
import { issueCaf } from "@timbre/core/caf";
import type { DocumentInput } from "@timbre/core/document";
import { verifyDte } from "@timbre/core/signature";
import { generateAuthorityKey, generateTestCertificate } from "@timbre/core/testing";
import { computeTotals } from "@timbre/core/totals";
import type { SignedDteOptions } from "@timbre/core/xml";
import { FairQueue } from "./fair-queue.js";
import { startSigningThreads } from "./signing-threads.js";

const authority = generateAuthorityKey(300);
const made = await generateTestCertificate({ rut: "11111111-1", name: "ANA PÉREZ", validFrom: new Date("2026-01-01"), validTo: new Date("2027-01-01"), password: "x" });
const identity = { privateKey: made.privateKey, certificateDer: made.certificateDer };

/** A business: its RUT and a CAF of boletas 1–1000 for it. */
const business = (rut: string) => ({ rut, caf: issueCaf({ authority, rut, razonSocial: "Tienda SpA", tipo: 39, desde: 1, hasta: 1000, fechaAutorizacion: "2026-01-15" }).caf });

const job = (of: ReturnType<typeof business>, folio: number): SignedDteOptions => {
  const input: DocumentInput = {
    tipo: 39,
    folio,
    fecha: "2026-01-15",
    preciosBrutos: true,
    issuer: { rut: of.rut, razonSocial: "Tienda SpA", giro: "Comercio", acteco: [726000], direccion: "Santa Cruz", comuna: "Santa Cruz" },
    receiver: { rut: "66666666-6", razonSocial: "" },
    items: [{ nombre: "Café", cantidad: 1, precio: 1990 }],
  };
  return { input, totals: computeTotals(input), caf: of.caf, identity, timestamp: "2026-01-15T10:11:12" };
};

// One thread, so that the order is exact: it holds two messages of A's at B's arrival.
const threads = startSigningThreads(1);
afterAll(() => threads.close());

test("business B's one emission, queued behind business A's 400, completes after a few of A's jobs, not all of them", async () => {
  const a = business("76192083-9");
  const b = business("96790240-3");
  const completed: string[] = [];
  // A's batch: one call per document, as emissions arriving together, all queued in one turn.
  const batch = Array.from({ length: 400 }, (_, i) => threads.sign([job(a, i + 1)]).then((r) => (completed.push("A"), r)));
  await new Promise((resolve) => setImmediate(resolve)); // A's first messages are on the threads
  const single = threads.sign([job(b, 1)]).then((r) => (completed.push("B"), r));
  const [results] = await Promise.all([single, Promise.all(batch)]);
  expect(results[0]?.ok).toBe(true);
  if (results[0]?.ok) expect(verifyDte(results[0].signed.xml).valid).toBe(true);
  const aBeforeB = completed.indexOf("B");
  console.info(`business A's jobs completed before business B's one: ${aBeforeB} of 400`);
  // What the thread already held (2 messages of 16), then B's message starts with one of A's, B's turn being next.
  expect(aBeforeB).toBe(2 * 16 + 1);
  expect(completed.length).toBe(401);
}, 120_000);

test("the fair queue serves one item per key in turn, each key's items in order", () => {
  const queue = new FairQueue<string>();
  for (const item of ["a1", "a2", "a3", "a4"]) queue.push("A", item);
  queue.push("B", "b1");
  expect(queue.take()).toBe("a1");
  queue.push("C", "c1");
  queue.push("B", "b2");
  const order: string[] = [];
  for (let item = queue.take(); item !== undefined; item = queue.take()) order.push(item);
  expect(order).toEqual(["b1", "a2", "c1", "b2", "a3", "a4"]);
  expect(queue.size).toBe(0);
});

// The bounds of the verification threads as the doors answer them (issue 45): an envelope past VERIFY_TIMEOUT_MS is
// 503 UNAVAILABLE for an upload and an inbox entry for mail, nothing kept; a business beyond
// VERIFY_ENVELOPES_PER_BUSINESS is 429 RATE_LIMITED with Retry-After; the thread is replaced and imports go on.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import { encodeLatin1 } from "@timbre/core";
import { receivedEnvelopeMaker, type ReceivedEnvelopeMaker } from "../../../tests/support/received-envelopes.js";
import { expectError, tenant } from "../../../test/support/fixtures.js";
import { freePort } from "../../../test/support/free-port.js";
import { createHarness, describeDrivers, type Harness } from "../../../test/support/harness.js";
import { receivedDocuments } from "../../db/received.js";
import { startSmtpReceiver, type SmtpReceiver } from "../../intercambio/smtp-receiver.js";
import { readBusinessRow } from "../businesses/business-row.js";
import { intercambioEmail } from "./intercambio-address.js";

const A_RUT = "77777777-7";

describeDrivers("received envelopes beyond the verification threads' bounds", (driver) => {
  let h: Harness;
  let a: Awaited<ReturnType<typeof tenant>>;
  let maker: ReceivedEnvelopeMaker;
  let largest: Uint8Array;
  let smtp: SmtpReceiver;
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
    // 100 ms: far less than a 5 MiB envelope takes, far more than a thread takes to answer a small one
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", VERIFY_TIMEOUT_MS: "100", VERIFY_ENVELOPES_PER_BUSINESS: "1", INBOUND_DOMAIN: "in.timbre.test" });
    smtp = await startSmtpReceiver(h.deps, { port });
    a = await tenant(h, A_RUT);
    maker = await receivedEnvelopeMaker();
    largest = encodeLatin1(maker.largest(A_RUT));
  }, 120_000);
  afterAll(async () => {
    await smtp?.close();
    await h?.close();
  });

  const upload = (bytes: Uint8Array) => h.call("POST", "/v1/received", { key: a.key.key, raw: bytes, headers: { "content-type": "application/xml" } });
  const kept = async () => (await h.deps.db.select({ n: count() }).from(receivedDocuments).where(eq(receivedDocuments.businessId, a.business.id)))[0]?.n ?? 0;

  test("an upload past the time limit is 503 UNAVAILABLE verify_timeout and keeps nothing; a second one meanwhile is 429 with Retry-After; then a small one imports", async () => {
    expect(largest.byteLength).toBeGreaterThan(4.9 * 1024 * 1024);
    const [first, second] = await Promise.all([upload(largest), upload(largest)]);
    const byStatus = [first, second].sort((x, y) => x.status - y.status);
    const [limited, timedOut] = byStatus;
    expectError(limited!, 429, "RATE_LIMITED");
    expect(limited!.json.error.details).toMatchObject({ reason: "verify_per_business" });
    expect(Number(limited!.headers.get("retry-after"))).toBe(limited!.json.error.details.retry_after);
    expect(limited!.json.error.details.retry_after).toBeGreaterThanOrEqual(1);
    expectError(timedOut!, 503, "UNAVAILABLE");
    expect(timedOut!.json.error.details).toEqual({ reason: "verify_timeout" });
    expect(await kept()).toBe(0);
    const small = await upload(encodeLatin1(maker.envelope(A_RUT, 1, 50_000)));
    expect(small.status).toBe(201);
    // the fixture's CAF authority is not the sandbox's: kept, unverified
    expect(small.json.data.results[0].data.verificacion.caf).not.toBe("ok");
    expect(await kept()).toBe(1);
  }, 120_000);

  test("a mailed envelope past the time limit lands in the inbox as verify_timeout", async () => {
    const address = await intercambioEmail(h.deps, (await readBusinessRow(h.deps, a.business.id))!);
    const client = nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });
    try {
      await client.sendMail({ from: "x@example.com", to: address, subject: "grande", text: "x", attachments: [{ filename: "envio.xml", content: Buffer.from(largest), contentType: "application/xml" }] });
    } finally {
      client.close();
    }
    const inbox = await h.call("GET", "/v1/received/inbox", { key: a.key.key });
    expect(inbox.json.data.find((i: { subject: string }) => i.subject === "grande")).toMatchObject({ source: "smtp", reason: "verify_timeout", filename: "envio.xml" });
    expect(await kept()).toBe(1);
  }, 120_000);
});

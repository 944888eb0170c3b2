// The SII's list of electronic issuers (API.md §14) as GET /issuers/{rut} shows it and as deliveries (§11) and answers
// (§12) use it: from the published file (SII_ISSUERS_FILE) and, in sandbox mode, the sandbox's businesses first.
// Deliveries go over real SMTP on loopback to a mailbox server that takes every recipient.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { fileURLToPath } from "node:url";
import { SMTPServer } from "smtp-server";
import { emitBody, emitter, RECEPTOR } from "../../../test/support/emission.js";
import { createKey, expectError, signUp, createBusiness } from "../../../test/support/fixtures.js";
import { freePort } from "../../../test/support/free-port.js";
import { createHarness, describeDrivers, type Harness } from "../../../test/support/harness.js";
import { refreshDocumentStatus } from "../../dispatch/refresh-document-status.js";
import { createMailWorker } from "../../intercambio/send-outbox.js";
import { answerAddress } from "../received/acuse.js";
import { issuerOf } from "./issuer-of.js";

const SAMPLE = fileURLToPath(new URL("../../../../../packages/sii-data/fixtures/ce_empresas_dwnld-sample.csv", import.meta.url));
const A_RUT = "77777777-7";
/** In the sample file with SASCO's address, and a business of this sandbox: the sandbox's entry wins. */
const B_RUT = "76192083-9";
/** Only in the sample file. */
const NUNOA_RUT = "96790240-3";

/** A mailbox server on loopback that takes any recipient and keeps who each message was for. */
async function startMailbox(port: number) {
  const recipients: string[][] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        recipients.push(session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { recipients, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describeDrivers("the SII's list of electronic issuers (API.md §14)", (driver) => {
  let h: Harness;
  let a: Awaited<ReturnType<typeof emitter>>;
  let b: Awaited<ReturnType<typeof emitter>>;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  beforeAll(async () => {
    const port = await freePort();
    mailbox = await startMailbox(port);
    h = await createHarness(driver, {
      SII_MODE: "sandbox",
      SII_SANDBOX_STEP_MS: "0",
      SII_ISSUERS_FILE: SAMPLE,
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      INBOUND_DOMAIN: "in.timbre.test",
      MAIL_TEST_ALLOWLIST: "nunoa.example.cl",
    });
    b = await emitter(h, { rut: B_RUT, tipos: [33] });
    a = await emitter(h, { rut: A_RUT, tipos: [] });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await mailbox?.close();
  });

  const get = (rut: string, key = a.key.key) => h.call("GET", `/v1/issuers/${encodeURIComponent(rut)}`, { key });
  const emailOf = async (businessId: string, key: string) => (await h.call("GET", `/v1/businesses/${businessId}`, { key })).json.data.intercambio.email as string;

  test("GET /issuers/{rut}: a sandbox business with its Timbre address (before the file's entry), a RUT only the file lists, 404 when not listed, 422 for a bad RUT", async () => {
    const bAddress = await emailOf(b.business.id, b.key.key);
    const sandbox = await get("76.192.083-9");
    expect(sandbox.status).toBe(200);
    expect(sandbox.json.data).toEqual({ rut: B_RUT, razon_social: "Comercial Ejemplo SpA", resolucion: { numero: 0, fecha: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }, correo_intercambio: bAddress });
    const fromFile = await get(NUNOA_RUT);
    expect(fromFile.json.data).toEqual({ rut: NUNOA_RUT, razon_social: "COMERCIALIZADORA ÑUÑOA Y CÍA. LIMITADA", resolucion: { numero: 0, fecha: "2021-03-05" }, correo_intercambio: "recepcion.dte@nunoa.example.cl" });
    expect((await get("11111111-1")).json.data).toMatchObject({ razon_social: "SIN CASILLA LTDA", correo_intercambio: null });
    expectError(await get("12345678-5"), 404, "NOT_FOUND");
    const wrongDigit = await get("76192083-8");
    expectError(wrongDigit, 422, "VALIDATION_ERROR");
    expect(wrongDigit.json.error.details).toMatchObject({ field: "rut", reason: "invalid_rut" });
    expectError(await get("not-a-rut"), 422, "VALIDATION_ERROR");
  });

  test("permissions: dte:read reads the list, a key without it is 403, no credential is 401", async () => {
    const user = await signUp(h);
    const business = await createBusiness(h, user.token, { rut: "22222222-2" });
    const dteRead = await createKey(h, user.token, business.id, ["dte:read"]);
    expect((await get(NUNOA_RUT, dteRead.key)).status).toBe(200);
    const receivedOnly = await createKey(h, user.token, business.id, ["received:read"]);
    expectError(await get(NUNOA_RUT, receivedOnly.key), 403, "FORBIDDEN");
    expectError(await h.call("GET", `/v1/issuers/${NUNOA_RUT}`), 401, "UNAUTHORIZED");
  });

  test("the live list in sandbox mode is the file alone; the sandbox's businesses are the test environment's", async () => {
    expect((await issuerOf(h.deps, B_RUT, "live"))?.correoIntercambio).toBe("dte@sasco.example.cl");
    expect(await issuerOf(h.deps, A_RUT, "live")).toBeNull();
    expect((await issuerOf(h.deps, A_RUT, "test"))?.correoIntercambio).toBe(await emailOf(a.business.id, a.key.key));
  });

  test("deliveries go to the listed correo de intercambio: a receiver only the file lists gets the factura at its address and at receptor.email", async () => {
    const res = await h.call("POST", "/v1/dte/emit", { key: b.key.key, body: emitBody(33, { receptor: { ...RECEPTOR, rut: NUNOA_RUT, razon_social: "Comercializadora Ñuñoa", email: "compras@nunoa.example.cl" } }) });
    expect(res.status).toBe(201);
    const id = res.json.data.id as string;
    expect((await refreshDocumentStatus(h.deps, id))?.estado).toBe("ACEPTADO");
    await createMailWorker(h.deps).tick();
    const intercambio = (await h.call("GET", `/v1/dte/${id}`, { key: b.key.key })).json.data.intercambio;
    expect(intercambio).toMatchObject({ destinatarios: ["recepcion.dte@nunoa.example.cl", "compras@nunoa.example.cl"], estado: "ENVIADO", error: null });
    expect(mailbox.recipients).toContainEqual(["recepcion.dte@nunoa.example.cl", "compras@nunoa.example.cl"]);
  }, 60_000);

  test("answers go to the emisor's listed address first, the message's reply address only when the list has none", async () => {
    expect(await answerAddress(h.deps, NUNOA_RUT, "test", "bounce@ses.example.com")).toBe("recepcion.dte@nunoa.example.cl");
    expect(await answerAddress(h.deps, B_RUT, "test", "bounce@ses.example.com")).toBe(await emailOf(b.business.id, b.key.key));
    expect(await answerAddress(h.deps, "11111111-1", "test", "bounce@ses.example.com")).toBe("bounce@ses.example.com");
    expect(await answerAddress(h.deps, "12345678-5", "test", null)).toBeNull();
  });
});

describeDrivers("the SII's list outside sandbox mode (API.md §14)", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "certificacion", SII_ISSUERS_FILE: SAMPLE });
  }, 60_000);
  afterAll(async () => h?.close());

  test("the published file is the whole list: a business of this Timbre is listed only as the file lists it", async () => {
    const user = await signUp(h);
    const business = await createBusiness(h, user.token, { rut: A_RUT });
    const key = await createKey(h, user.token, business.id, ["dte:read"]);
    expect((await h.call("GET", `/v1/issuers/${B_RUT}`, { key: key.key })).json.data).toEqual({ rut: B_RUT, razon_social: "SASCO SpA", resolucion: { numero: 80, fecha: "2014-08-22" }, correo_intercambio: "dte@sasco.example.cl" });
    expectError(await h.call("GET", `/v1/issuers/${A_RUT}`, { key: key.key }), 404, "NOT_FOUND");
  });
});

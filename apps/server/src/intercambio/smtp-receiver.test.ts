// Timbre's own SMTP receiver and the mail worker, over real SMTP on loopback (smtp-server, nodemailer, mailparser):
// business B's envelope mailed to A's intercambio address becomes A's received document; A's acuse, sent by the
// mail worker through SMTP_URL (here Timbre's own receiver), reaches B's address; unknown recipients are refused.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect } from "node:net";
import nodemailer, { type Transporter } from "nodemailer";
import { eq } from "drizzle-orm";
import { freePort } from "../../test/support/free-port.js";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { emitBody, emitter, RECEPTOR } from "../../test/support/emission.js";
import { attachmentOf, outboxOf } from "../../test/support/exchange.js";
import { exchangeOutbox } from "../db/received.js";
import { refreshDocumentStatus } from "../dispatch/refresh-document-status.js";
import { readBusinessRow } from "../modules/businesses/business-row.js";
import { intercambioEmail } from "../modules/received/intercambio-address.js";
import { receiverEnvelopeOf } from "./receiver-envelope.js";
import { createMailWorker } from "./send-outbox.js";
import { MESSAGE_LIMIT } from "./deliver-message.js";
import { startSmtpReceiver, type SmtpReceiver } from "./smtp-receiver.js";

/**
 * Speaks SMTP by hand (no SIZE parameter, so only the DATA the server reads can tell): sends `bodyBytes` of message
 * to `to` and returns the server's answer to the end of DATA.
 */
async function sendRaw(port: number, to: string, bodyBytes: number): Promise<string> {
  const socket = connect(port, "127.0.0.1");
  let buffered = "";
  const waiters: Array<(line: string) => void> = [];
  socket.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("latin1");
    let end: number;
    // a reply's last line is "NNN text" (a dash after the code continues it)
    while ((end = buffered.search(/^\d{3} .*\r\n/m)) >= 0) {
      const line = /^\d{3} .*\r\n/m.exec(buffered.slice(end))![0];
      buffered = buffered.slice(end + line.length);
      waiters.shift()?.(line.trim());
    }
  });
  const reply = () => new Promise<string>((resolve) => waiters.push(resolve));
  const say = async (line: string) => {
    const next = reply();
    socket.write(`${line}\r\n`);
    return next;
  };
  try {
    await reply(); // banner
    await say("EHLO client.example");
    await say("MAIL FROM:<x@example.com>");
    expect(await say(`RCPT TO:<${to}>`)).toStartWith("250");
    expect(await say("DATA")).toStartWith("354");
    const line = `${"x".repeat(998)}\r\n`;
    const chunk = Buffer.from(line.repeat(1024), "latin1");
    const answer = reply();
    socket.write("Subject: grande\r\n\r\n");
    for (let sent = 0; sent < bodyBytes; sent += chunk.length) {
      if (!socket.write(chunk)) await new Promise((resolve) => socket.once("drain", resolve));
    }
    socket.write(".\r\n");
    return await answer;
  } finally {
    socket.destroy();
  }
}

const A_RUT = "77777777-7";
const B_RUT = "76192083-9";

describeDrivers("SMTP intercambio door (API.md §12, §14)", (driver) => {
  let h: Harness;
  let a: Awaited<ReturnType<typeof emitter>>;
  let b: Awaited<ReturnType<typeof emitter>>;
  let receiver: SmtpReceiver;
  let client: Transporter;
  let aAddress = "";
  let bAddress = "";
  beforeAll(async () => {
    const port = await freePort();
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", SMTP_URL: `smtp://127.0.0.1:${port}`, INBOUND_DOMAIN: "in.timbre.test" });
    receiver = await startSmtpReceiver(h.deps, { port });
    client = nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });
    b = await emitter(h, { rut: B_RUT, tipos: [33] });
    a = await emitter(h, { rut: A_RUT, tipos: [] });
    aAddress = await intercambioEmail(h.deps, (await readBusinessRow(h.deps, a.business.id))!);
    bAddress = await intercambioEmail(h.deps, (await readBusinessRow(h.deps, b.business.id))!);
  }, 60_000);
  afterAll(async () => {
    client?.close();
    await receiver?.close();
    await h?.close();
  });

  const issuedToA = async () => {
    const res = await h.call("POST", "/v1/dte/emit", { key: b.key.key, body: emitBody(33, { receptor: { ...RECEPTOR, rut: A_RUT, razon_social: "Compradora A SpA" } }) });
    expect(res.status).toBe(201);
    expect((await refreshDocumentStatus(h.deps, res.json.data.id))?.estado).toBe("ACEPTADO");
    return { folio: res.json.data.folio as number, envelope: await receiverEnvelopeOf(h.deps, res.json.data.id) };
  };

  test("an EnvioDTE mailed to A's address is imported and verified; A's acuse travels back to B's address over SMTP", async () => {
    const { folio, envelope } = await issuedToA();
    const info = await client.sendMail({
      from: "facturacion@proveedor.example",
      replyTo: bAddress,
      to: aAddress,
      subject: `Factura ${folio}`,
      text: "Se adjunta",
      attachments: [{ filename: `dte_${B_RUT}_T33F${folio}.xml`, content: Buffer.from(envelope, "latin1"), contentType: "application/xml" }],
    });
    expect(info.accepted).toEqual([aAddress]);
    const list = await h.call("GET", `/v1/received?emisor_rut=${B_RUT}`, { key: a.key.key });
    const doc = list.json.data.find((d: { folio: number }) => d.folio === folio);
    expect(doc).toMatchObject({ estado: "SIN_RESPUESTA", verificacion: { firma: "ok", timbre: "ok", caf: "ok", receptor: "ok" } });
    expect(doc.plazo_hasta).not.toBeNull();

    const [acuse] = (await outboxOf(h, a.business.id, "acuse")).slice(-1);
    expect(acuse?.recipients).toEqual([bAddress]); // B is listed (sandbox): its intercambio address first
    expect(acuse?.state).toBe("pending");
    expect(await createMailWorker(h.deps).tick()).toBe(false);
    const [sent] = await h.deps.db.select().from(exchangeOutbox).where(eq(exchangeOutbox.id, acuse!.id));
    expect(sent).toMatchObject({ state: "sent", error: null, attempts: 1 });
    // B's receiver took the RespuestaDTE: the acuse is recorded on B's document (answers-and-results.test.ts has more).
    const issued = (await h.call("GET", `/v1/dte?folio=${folio}`, { key: b.key.key })).json.data[0];
    const detail = await h.call("GET", `/v1/dte/${issued.id}`, { key: b.key.key });
    expect(detail.json.data.intercambio.respuestas).toMatchObject([{ tipo: "recepcion", codigo: 0, glosa: "DTE Recibido OK" }]);
  }, 60_000);

  test("unknown recipients and relaying are refused with 550; messages without XML or with a forged envelope land in the inbox", async () => {
    for (const to of ["0123456789abcdef0123456789abcdef@in.timbre.test", "someone@example.com", "postmaster@in.timbre.test"]) {
      const refused = await client.sendMail({ from: "x@example.com", to, subject: "hola", text: "hola" }).then(
        () => null,
        (e: { responseCode?: number }) => e.responseCode,
      );
      expect(refused).toBe(550);
    }
    await client.sendMail({ from: "x@example.com", to: aAddress, subject: "sin adjuntos", text: "hola" });
    const { envelope } = await issuedToA();
    const forged = envelope.replace(/<NroResol>(\d+)<\/NroResol>/, (_m, n: string) => `<NroResol>${Number(n) + 1}</NroResol>`);
    await client.sendMail({ from: "x@example.com", to: aAddress, subject: "forged", text: "x", attachments: [{ filename: "envio.xml", content: Buffer.from(forged, "latin1"), contentType: "application/octet-stream" }] });
    const inbox = await h.call("GET", "/v1/received/inbox", { key: a.key.key });
    const reasons = inbox.json.data.map((i: { reason: string; subject: string }) => `${i.subject}:${i.reason}`);
    expect(reasons).toContain("sin adjuntos:no_xml");
    expect(reasons).toContain("forged:signature");
  }, 60_000);

  test("a message over 25 MiB is refused with 552 and nothing of it is kept", async () => {
    const before = (await h.call("GET", "/v1/received/inbox", { key: a.key.key })).json.data.length;
    const answer = await sendRaw(receiver.port, aAddress, MESSAGE_LIMIT + 1024 * 1024);
    expect(answer).toStartWith("552");
    expect((await h.call("GET", "/v1/received/inbox", { key: a.key.key })).json.data.length).toBe(before);
    // the receiver still takes mail after it
    await client.sendMail({ from: "x@example.com", to: aAddress, subject: "después", text: "hola" });
    const inbox = await h.call("GET", "/v1/received/inbox", { key: a.key.key });
    expect(inbox.json.data.map((i: { subject: string }) => i.subject)).toContain("después");
  }, 120_000);

  test("outbound delivery (§11): on acceptance the mail worker mails A the EnvioDTE addressed to it plus the PDF; it becomes A's verified received document; dte.delivered", async () => {
    const res = await h.call("POST", "/v1/dte/emit", { key: b.key.key, body: emitBody(33, { receptor: { ...RECEPTOR, rut: A_RUT, razon_social: "Compradora A SpA", email: "compras@example.com" } }) });
    const id = res.json.data.id as string;
    const folio = res.json.data.folio as number;
    expect((await refreshDocumentStatus(h.deps, id))?.estado).toBe("ACEPTADO");
    const [queued] = (await outboxOf(h, b.business.id, "entrega")).filter((r) => r.subjectId === id);
    expect(queued?.state).toBe("pending");
    await createMailWorker(h.deps).tick();
    const [sent] = await h.deps.db.select().from(exchangeOutbox).where(eq(exchangeOutbox.id, queued!.id));
    // example.com is not mailed from the test environment; A's listed intercambio address is.
    expect(sent).toMatchObject({ state: "sent", recipients: [aAddress], replyTo: bAddress });
    expect(sent?.attachments.map((a) => a.contentType)).toEqual(["application/xml", "application/pdf"]);
    const envelope = Buffer.from(sent!.attachments[0]!.content, "base64").toString("latin1");
    expect(await attachmentOf(sent!, "dte_", "EnvioDTE")).toMatchObject({ valid: true, errors: [] });
    expect(envelope).toContain(`<RutReceptor>${A_RUT}</RutReceptor>`);
    const list = await h.call("GET", `/v1/received?emisor_rut=${B_RUT}`, { key: a.key.key });
    expect(list.json.data.find((d: { folio: number }) => d.folio === folio)).toMatchObject({ estado: "SIN_RESPUESTA", verificacion: { firma: "ok", timbre: "ok", caf: "ok", receptor: "ok" } });
    const events = await h.call("GET", "/v1/events?event=dte.delivered", { key: b.key.key });
    expect(events.json.data.find((e: { data: { dte_id: string } }) => e.data.dte_id === id)?.data).toMatchObject({ tipo: 33, folio, destinatarios: [aAddress] });
  }, 60_000);
});

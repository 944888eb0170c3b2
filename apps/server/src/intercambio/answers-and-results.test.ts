// What comes back by mail about a business's own documents (API.md §11–§12), over real SMTP on loopback: the sandbox
// SII's RESULTADO_ENVIO, mailed by the in-process sandbox to the issuer's intercambio address, adds per-document codes
// to /status; the receiver's acuse, ResultadoDTE and EnvioRecibos, mailed by Timbre's mail worker, appear in
// intercambio.respuestas and raise dte.receiver_answered. Neither changes estado; what does not match lands in the inbox.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildResultadoDte } from "@timbre/core";
import nodemailer, { type Transporter } from "nodemailer";
import { freePort } from "../../test/support/free-port.js";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { emitBody, emitter, RECEPTOR } from "../../test/support/emission.js";
import { attachmentOf, outboxOf } from "../../test/support/exchange.js";
import { refreshDocumentStatus } from "../dispatch/refresh-document-status.js";
import { readBusinessRow } from "../modules/businesses/business-row.js";
import { loadSigningIdentity } from "../modules/dte/signing-identity.js";
import { intercambioEmail } from "../modules/received/intercambio-address.js";
import { receiverEnvelopeOf } from "./receiver-envelope.js";
import { createMailWorker } from "./send-outbox.js";
import { startSmtpReceiver, type SmtpReceiver } from "./smtp-receiver.js";

const A_RUT = "77777777-7";
const B_RUT = "76192083-9";

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await read();
    if (done(value)) return value;
    await Bun.sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describeDrivers("the SII's result mails and the receivers' answers (API.md §11, §12)", (driver) => {
  let h: Harness;
  let a: Awaited<ReturnType<typeof emitter>>;
  let b: Awaited<ReturnType<typeof emitter>>;
  let receiver: SmtpReceiver;
  let client: Transporter;
  let aAddress = "";
  let bAddress = "";
  beforeAll(async () => {
    const port = await freePort();
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_INBOUND_PORT: String(port), INBOUND_DOMAIN: "in.timbre.test" });
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

  const emitToA = async (razonSocial = "Compradora A SpA") => {
    const res = await h.call("POST", "/v1/dte/emit", { key: b.key.key, body: emitBody(33, { receptor: { ...RECEPTOR, rut: A_RUT, razon_social: razonSocial } }) });
    expect(res.status).toBe(201);
    return res.json.data as { id: string; folio: number; fecha: string; monto_total: number; track_id: string; estado: string };
  };
  const inboxOf = async (key: string) => (await h.call("GET", "/v1/received/inbox", { key })).json.data as Array<{ reason: string; detail: string; subject: string | null }>;
  const mailXml = (subject: string, filename: string, xml: string) =>
    client.sendMail({ from: "otro@example.com", to: bAddress, subject, text: "x", attachments: [{ filename, content: Buffer.from(xml, "latin1"), contentType: "application/xml" }] });

  test("a factura whose receptor is [sandbox:rechazo]: the sandbox's result mail reaches B's address and /status carries its code with a hint; estado unchanged", async () => {
    const dte = await emitToA("Compradora A SpA [sandbox:rechazo]");
    expect(dte.estado).toBe("ENVIADO");
    const status = await until(
      async () => (await h.call("GET", `/v1/dte/${dte.id}/status`, { key: b.key.key })).json.data,
      (s) => s.sii.errores.length > 0,
      "the result mail's codes",
    );
    expect(status.estado).toBe("ENVIADO");
    expect(status.sii.errores[0]).toMatchObject({ codigo: "HED-3-305" });
    expect(status.sii.errores[0].descripcion.length).toBeGreaterThan(0);
    expect(status.sii.errores[0].ayuda).not.toContain("no catalogado");
    // The SII's web services stay the authority on state: the refresh rejects it and the mail's code stays listed once.
    expect((await refreshDocumentStatus(h.deps, dte.id))?.estado).toBe("RECHAZADO");
    const after = (await h.call("GET", `/v1/dte/${dte.id}/status`, { key: b.key.key })).json.data;
    expect(after.sii.errores.filter((e: { codigo: string }) => e.codigo === "HED-3-305")).toHaveLength(1);
    // A is not told anything about B's envelope.
    expect((await inboxOf(a.key.key)).some((i) => i.subject?.includes("Resultado de Revision"))).toBe(false);
  }, 60_000);

  test("a RESULTADO_ENVIO for a TRACKID B never had, or for another issuer, goes to B's inbox", async () => {
    const result = (rut: string, track: string) =>
      `<?xml version="1.0" encoding="ISO-8859-1"?>\n<RESULTADO_ENVIO><IDENTIFICACION><RUTEMISOR>${rut}</RUTEMISOR><RUTENVIA>11111111-1</RUTENVIA><TRACKID>${track}</TRACKID><TMSTRECEPCION>01/01/2026 10:00:00</TMSTRECEPCION><ESTADO>EPR - Envio Procesado</ESTADO></IDENTIFICACION></RESULTADO_ENVIO>`;
    await mailXml("resultado ajeno", "r1.xml", result(B_RUT, "9999999999"));
    await mailXml("resultado otro emisor", "r2.xml", result(A_RUT, "1"));
    await mailXml("resultado con DTD", "r3.xml", `<?xml version="1.0"?><!DOCTYPE RESULTADO_ENVIO [<!ENTITY x "y">]>${result(B_RUT, "1").replace(/^<\?xml[^>]*>\n/, "")}`);
    const reasons = (await inboxOf(b.key.key)).map((i) => `${i.subject}:${i.reason}`);
    expect(reasons).toContain("resultado ajeno:no_envelope");
    expect(reasons).toContain("resultado otro emisor:not_addressed");
    expect(reasons).toContain("resultado con DTD:format");
  }, 60_000);

  test("A imports B's factura and accepts it with receipt: the acuse, ResultadoDTE and EnvioRecibos reach B's respuestas and raise dte.receiver_answered; estado stays", async () => {
    const dte = await emitToA();
    expect((await refreshDocumentStatus(h.deps, dte.id))?.estado).toBe("ACEPTADO");
    const envelope = await receiverEnvelopeOf(h.deps, dte.id);
    await client.sendMail({ from: "facturacion@b.example", replyTo: bAddress, to: aAddress, subject: `Factura ${dte.folio}`, text: "x", attachments: [{ filename: `T33F${dte.folio}.xml`, content: Buffer.from(envelope, "latin1"), contentType: "application/xml" }] });
    const received = (await h.call("GET", `/v1/received?emisor_rut=${B_RUT}`, { key: a.key.key })).json.data.find((d: { folio: number }) => d.folio === dte.folio);
    expect(received?.verificacion.firma).toBe("ok");
    const worker = createMailWorker(h.deps);
    await worker.tick();
    const accepted = await h.call("POST", `/v1/received/${received.id}/aceptar`, { key: a.key.key, body: { recibo_mercaderias: true } });
    expect(accepted.status).toBe(200);
    await worker.tick();
    const detail = await until(
      async () => (await h.call("GET", `/v1/dte/${dte.id}`, { key: b.key.key })).json.data,
      (d) => d.intercambio.respuestas.length >= 3,
      "three answers",
    );
    const respuestas = detail.intercambio.respuestas as Array<{ tipo: string; codigo: number; glosa: string; at: string }>;
    // B's own delivery to A (§11) may bring A a second copy, answered "DTE repetido" (4): every answer is listed.
    expect(respuestas.map((r) => `${r.tipo}:${r.codigo}`)).toEqual(expect.arrayContaining(["recepcion:0", "recibo:0", "resultado:0"]));
    expect(respuestas.find((r) => r.tipo === "resultado")?.glosa).toBe("ACEPTADO OK");
    expect(respuestas.find((r) => r.tipo === "recepcion")?.glosa).toBe("DTE Recibido OK");
    expect(detail.estado).toBe("ACEPTADO");
    const events = (await h.call("GET", "/v1/events?event=dte.receiver_answered", { key: b.key.key })).json.data as Array<{ data: Record<string, unknown> }>;
    const mine = events.filter((e) => e.data.dte_id === dte.id);
    expect(mine).toHaveLength(respuestas.length);
    expect(mine[0]?.data).toMatchObject({ tipo: 33, folio: dte.folio, respuesta: { codigo: 0 } });
    expect((await h.call("GET", `/v1/dte/${dte.id}/aceptacion`, { key: b.key.key })).status).toBe(200);

    // The same answers mailed again are kept once.
    const [recibosMail] = (await outboxOf(h, a.business.id, "recibos")).filter((m) => m.subjectId === received.id);
    const resultado = await attachmentOf(recibosMail!, "ResultadoDte_", "RespuestaDTE");
    await mailXml("repetida", "ResultadoDte_again.xml", resultado.xml);
    expect((await h.call("GET", `/v1/dte/${dte.id}`, { key: b.key.key })).json.data.intercambio.respuestas).toHaveLength(respuestas.length);

    // A tampered answer, one from another RUT and one whose total differs are not recorded; each says why.
    await mailXml("alterada", "ResultadoDte_t.xml", resultado.xml.replace("<EstadoDTEGlosa>ACEPTADO OK", "<EstadoDTEGlosa>ACEPTADO 0K"));
    const { identity } = await loadSigningIdentity(h.deps, a.business.id);
    const answer = (rutResponde: string, montoTotal: number) =>
      buildResultadoDte({
        caratula: { rutResponde, rutRecibe: B_RUT, idRespuesta: 90, timestamp: "2026-01-15T10:11:12" },
        resultados: [{ tipo: 33, folio: dte.folio, fecha: detail.fecha, rutEmisor: B_RUT, rutReceptor: rutResponde, montoTotal, codEnvio: 1, estado: 2, glosa: "RECHAZADO" }],
        identity,
      });
    await mailXml("otro rut", "ResultadoDte_o.xml", answer("11111111-1", detail.monto_total));
    await mailXml("otro total", "ResultadoDte_m.xml", answer(A_RUT, detail.monto_total + 1));
    const reasons = (await inboxOf(b.key.key)).map((i) => `${i.subject}:${i.reason}`);
    expect(reasons).toContain("alterada:signature");
    expect(reasons).toContain("otro rut:other_receiver");
    expect(reasons).toContain("otro total:mismatch");
    const final = (await h.call("GET", `/v1/dte/${dte.id}`, { key: b.key.key })).json.data;
    expect(final.intercambio.respuestas).toHaveLength(respuestas.length);
    expect(final.intercambio.respuestas.some((r: { codigo: number }) => r.codigo === 2)).toBe(false);
  }, 90_000);
});

describe("the sandbox on its own thread (what npm start runs)", () => {
  test("posts its result mail to the server's thread, which mails it to the issuer's intercambio address", async () => {
    const port = await freePort();
    const h = await createHarness("pglite", { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", SMTP_INBOUND_PORT: String(port), INBOUND_DOMAIN: "in.timbre.test" }, { sandboxOnThisThread: false });
    const receiver = await startSmtpReceiver(h.deps, { port });
    try {
      const b = await emitter(h, { rut: B_RUT, tipos: [33] });
      const res = await h.call("POST", "/v1/dte/emit", { key: b.key.key, body: emitBody(33, { receptor: { ...RECEPTOR, razon_social: "Cliente [sandbox:reparos]" } }) });
      expect(res.status).toBe(201);
      expect((await h.deps.sii()).sandbox).toBeNull();
      const status = await until(
        async () => (await h.call("GET", `/v1/dte/${res.json.data.id}/status`, { key: b.key.key })).json.data,
        (s) => s.sii.errores.length > 0,
        "the result mail's codes",
      );
      expect(status.sii.errores[0]).toMatchObject({ codigo: "HED-1-863" });
      expect(status.estado).toBe("ENVIADO");
    } finally {
      await receiver.close();
      await h.close();
    }
  }, 60_000);
});

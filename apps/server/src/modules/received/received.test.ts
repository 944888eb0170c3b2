// Received documents end to end with the sandbox SII (real HTTP on loopback): business B issues to business A, the
// envelope addressed to A is imported by A (POST /received), acknowledged to B, decided through the sandbox's
// registry, and answered with signed, schema-valid XML.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { encodeLatin1 } from "@timbre/core";
import { expectError } from "../../../test/support/fixtures.js";
import { attachmentOf, outboxOf, xmlCryptoVerifiesAll } from "../../../test/support/exchange.js";
import { createHarness, describeDrivers, type Harness } from "../../../test/support/harness.js";
import { emitBody, emitter, RECEPTOR } from "../../../test/support/emission.js";
import { receivedDocuments } from "../../db/received.js";
import { refreshDocumentStatus } from "../../dispatch/refresh-document-status.js";
import { buildReceiverEnvelope, receiverEnvelopeOf } from "../../intercambio/receiver-envelope.js";
import { readBusinessRow } from "../businesses/business-row.js";
import { intercambioEmail } from "./intercambio-address.js";

const A_RUT = "77777777-7";
const B_RUT = "76192083-9";

describeDrivers("received documents (API.md §12)", (driver) => {
  let h: Harness;
  let a: Awaited<ReturnType<typeof emitter>>;
  let b: Awaited<ReturnType<typeof emitter>>;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", SMTP_URL: "smtp://127.0.0.1:2525", INBOUND_DOMAIN: "in.timbre.test" });
    b = await emitter(h, { rut: B_RUT, tipos: [33, 52] });
    a = await emitter(h, { rut: A_RUT, tipos: [] });
  }, 60_000);
  afterAll(async () => h?.close());

  /** B issues a document to A and the SII accepts it; its envelope addressed to A. */
  const issuedToA = async (tipo = 33) => {
    const extra = tipo === 52 ? { traslado: { tipo: 1, despacho: 2 } } : {};
    const res = await h.call("POST", "/v1/dte/emit", { key: b.key.key, body: emitBody(tipo, { receptor: { ...RECEPTOR, rut: A_RUT, razon_social: "Compradora A SpA" }, ...extra }) });
    expect(res.json.error).toBeUndefined();
    expect(res.status).toBe(201);
    const id = res.json.data.id as string;
    expect((await refreshDocumentStatus(h.deps, id))?.estado).toBe("ACEPTADO");
    return { id, folio: res.json.data.folio as number, envelope: await receiverEnvelopeOf(h.deps, id) };
  };
  const upload = (xml: string | Uint8Array, key = a.key.key) =>
    h.call("POST", "/v1/received", { key, raw: typeof xml === "string" ? encodeLatin1(xml) : xml, headers: { "content-type": "application/xml" } });
  const keptCount = async () => (await h.deps.db.select({ n: count() }).from(receivedDocuments).where(eq(receivedDocuments.businessId, a.business.id)))[0]?.n ?? 0;

  test("import: verified, SIN_RESPUESTA with plazo_hasta from the registry; repeated: duplicate, nothing new; acuse to B, signed and schema-valid", async () => {
    const { folio, envelope } = await issuedToA();
    const res = await upload(envelope);
    expect(res.status).toBe(201);
    const [result] = res.json.data.results;
    expect(result).toMatchObject({ index: 0, success: true });
    const doc = result.data;
    expect(doc).toMatchObject({ emisor: { rut: B_RUT }, tipo: 33, folio, estado: "SIN_RESPUESTA", superseded_by: null, environment: "test" });
    expect(doc.id).toStartWith("rcv_");
    expect(doc.verificacion).toEqual({ firma: "ok", firma_variante: "separado", timbre: "ok", caf: "ok", receptor: "ok", emisor: "ok" });
    expect(doc.recibido_sii_at).not.toBeNull();
    const days = (Date.parse(doc.plazo_hasta) - Date.parse(doc.recibido_sii_at)) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(7.9);
    expect(days).toBeLessThanOrEqual(8.1);

    const before = await keptCount();
    const again = await upload(envelope);
    expect(again.status).toBe(201);
    expect(again.json.data.results[0]).toMatchObject({ success: true, duplicate: true, data: { id: doc.id } });
    expect(await keptCount()).toBe(before);

    const acuses = await outboxOf(h, a.business.id, "acuse");
    expect(acuses.length).toBe(2);
    const bAddress = await intercambioEmail(h.deps, (await readBusinessRow(h.deps, b.business.id))!);
    expect(acuses[0]?.recipients).toEqual([bAddress]);
    expect(acuses[0]?.state).toBe("pending");
    const acuse = await attachmentOf(acuses[0]!, "RecepcionDte_", "RespuestaDTE");
    expect(acuse.errors).toEqual([]);
    expect(acuse.valid).toBe(true);
    expect(xmlCryptoVerifiesAll(acuse.xml)).toBe(true);
    expect(acuse.xml).toContain(`<RecepcionDTE><TipoDTE>33</TipoDTE><Folio>${folio}</Folio>`);
    expect(acuse.xml).toContain("<EstadoRecepDTE>0</EstadoRecepDTE>");
    expect(await attachmentOf(acuses[1]!, "RecepcionDte_", "RespuestaDTE")).toMatchObject({ valid: true });
    expect((await attachmentOf(acuses[1]!, "RecepcionDte_", "RespuestaDTE")).xml).toContain("<EstadoRecepDTE>4</EstadoRecepDTE>");

    const one = await h.call("GET", `/v1/received/${doc.id}`, { key: a.key.key });
    expect(one.json.data).toEqual(doc);
    const xml = await h.call("GET", `/v1/received/${doc.id}/xml`, { key: a.key.key });
    expect(xml.headers.get("content-type")).toBe("application/xml; charset=ISO-8859-1");
    expect(xml.text).toStartWith('<DTE xmlns="http://www.sii.cl/SiiDte" version="1.0"><Documento ID="T33F');
    const [kept] = await h.deps.db.select({ xml: receivedDocuments.xml }).from(receivedDocuments).where(eq(receivedDocuments.id, doc.id));
    expect(envelope).toContain(Buffer.from(kept!.xml).toString("latin1"));
    const list = await h.call("GET", `/v1/received?emisor_rut=${B_RUT}&estado=SIN_RESPUESTA`, { key: a.key.key });
    expect(list.json.data.map((d: { id: string }) => d.id)).toContain(doc.id);
    // B cannot see A's received documents.
    expect((await h.call("GET", `/v1/received/${doc.id}`, { key: b.key.key })).status).toBe(404);
  }, 60_000);

  test("envelope-level refusals keep nothing: tampered, with a DTD, addressed to another RUT, not XML", async () => {
    const { id, envelope } = await issuedToA();
    const before = await keptCount();
    const tampered = await upload(envelope.replace(/<NroResol>(\d+)<\/NroResol>/, (_m, n: string) => `<NroResol>${Number(n) + 1}</NroResol>`));
    expect(tampered.json.error).toMatchObject({ code: "ENVELOPE_INVALID", details: { reason: "signature" } });
    const dtd = await upload(envelope.replace("<EnvioDTE", '<!DOCTYPE lol [<!ENTITY x "y">]><EnvioDTE'));
    expect(dtd.json.error).toMatchObject({ code: "ENVELOPE_INVALID", details: { reason: "format" } });
    const bRow = (await readBusinessRow(h.deps, b.business.id))!;
    const [stored] = await h.deps.db.select().from((await import("../../db/documents.js")).documents).where(eq((await import("../../db/documents.js")).documents.id, id));
    const toOther = buildReceiverEnvelope(h.deps, bRow, { ...stored!, receptorRut: "96790240-3" });
    expect((await upload(toOther)).json.error).toMatchObject({ code: "ENVELOPE_INVALID", details: { reason: "not_addressed" } });
    expect((await upload("not xml at all")).json.error).toMatchObject({ code: "ENVELOPE_INVALID", details: { reason: "format" } });
    expect(await keptCount()).toBe(before);
  }, 60_000);

  test("a document failing its own checks is kept as evidence, can only be claimed, and a verified copy supersedes it", async () => {
    const { id, folio } = await issuedToA();
    const bRow = (await readBusinessRow(h.deps, b.business.id))!;
    const { documents } = await import("../../db/documents.js");
    const [stored] = await h.deps.db.select().from(documents).where(eq(documents.id, id));
    // The DTE altered after its signature; the envelope signed again around it (as a forger would).
    const altered = Buffer.from(Buffer.from(stored!.xml).toString("latin1").replace("<NmbItem>Licencia", "<NmbItem>Licencias"), "latin1");
    const forged = await upload(buildReceiverEnvelope(h.deps, bRow, { ...stored!, xml: new Uint8Array(altered) }));
    expect(forged.status).toBe(201);
    const evidence = forged.json.data.results[0].data;
    expect(evidence).toMatchObject({ folio, verificacion: { firma: "invalida", timbre: "ok", caf: "ok", receptor: "ok" }, superseded_by: null });
    expectError(await h.call("POST", `/v1/received/${evidence.id}/aceptar`, { key: a.key.key, body: {} }), 409, "CONFLICT");
    const genuine = await upload(await receiverEnvelopeOf(h.deps, id));
    const verified = genuine.json.data.results[0].data;
    expect(verified.verificacion.firma).toBe("ok");
    expect((await h.call("GET", `/v1/received/${evidence.id}`, { key: a.key.key })).json.data.superseded_by).toBe(verified.id);
  }, 60_000);

  test("aceptar with recibo_mercaderias: ACD + ERM in the registry, B sees ACEPTADO; ResultadoDTE and EnvioRecibos signed and valid; a second decision is 409", async () => {
    const { id: dteId, envelope } = await issuedToA();
    const doc = (await upload(envelope)).json.data.results[0].data;
    const res = await h.call("POST", `/v1/received/${doc.id}/aceptar`, { key: a.key.key, body: { recibo_mercaderias: true } });
    expect(res.json.error).toBeUndefined();
    expect(res.status).toBe(200);
    expect(res.json.data.estado).toBe("ACEPTADO");
    expect(res.json.data.eventos.map((e: { codigo: string; origen: string }) => `${e.codigo}:${e.origen}`)).toEqual(["ACD:timbre", "ERM:timbre"]);
    const seenByB = await h.call("GET", `/v1/dte/${dteId}/aceptacion?refresh=true`, { key: b.key.key });
    expect(seenByB.json.data.estado).toBe("ACEPTADO");
    expect(seenByB.json.data.eventos.map((e: { codigo: string }) => e.codigo)).toEqual(["ACD", "ERM"]);
    const [mail] = (await outboxOf(h, a.business.id, "recibos")).filter((m) => m.subjectId === doc.id);
    const resultado = await attachmentOf(mail!, "ResultadoDte_", "RespuestaDTE");
    const recibos = await attachmentOf(mail!, "EnvioRecibos_", "EnvioRecibos");
    expect([resultado.valid, recibos.valid]).toEqual([true, true]);
    expect(xmlCryptoVerifiesAll(resultado.xml)).toBe(true);
    expect(xmlCryptoVerifiesAll(recibos.xml)).toBe(true);
    expect(resultado.xml).toContain("<EstadoDTE>0</EstadoDTE><EstadoDTEGlosa>ACEPTADO OK</EstadoDTEGlosa>");
    expect(recibos.xml).toContain("Ley 19.983, acredita que la entrega de mercaderias");
    const second = await h.call("POST", `/v1/received/${doc.id}/aceptar`, { key: a.key.key, body: {} });
    expect(second.json.error).toMatchObject({ code: "CONFLICT", details: { reason: "already_decided" } });
    const claim = await h.call("POST", `/v1/received/${doc.id}/reclamar`, { key: a.key.key, body: { accion: "RCD", motivo: "precio distinto" } });
    expect(claim.json.error).toMatchObject({ code: "CONFLICT", details: { reason: "already_decided" } });
    const events = await h.call("GET", "/v1/events?event=received.decided", { key: a.key.key });
    expect(events.json.data.some((e: { data: { received_id: string } }) => e.data.received_id === doc.id)).toBe(true);
  }, 60_000);

  test("reclamar: RCD registered, RECLAMADO on both sides, ResultadoDTE rejected with the reason; bad bodies are 422", async () => {
    const { id: dteId, envelope } = await issuedToA();
    const doc = (await upload(envelope)).json.data.results[0].data;
    expectError(await h.call("POST", `/v1/received/${doc.id}/reclamar`, { key: a.key.key, body: { accion: "ACD", motivo: "x" } }), 422, "VALIDATION_ERROR");
    expectError(await h.call("POST", `/v1/received/${doc.id}/reclamar`, { key: a.key.key, body: { accion: "RCD", motivo: "" } }), 422, "VALIDATION_ERROR");
    const res = await h.call("POST", `/v1/received/${doc.id}/reclamar`, { key: a.key.key, body: { accion: "RCD", motivo: "precio distinto al pactado" } });
    expect(res.status).toBe(200);
    expect(res.json.data.estado).toBe("RECLAMADO");
    expect((await h.call("GET", `/v1/dte/${dteId}/aceptacion?refresh=true`, { key: b.key.key })).json.data.estado).toBe("RECLAMADO");
    const [mail] = (await outboxOf(h, a.business.id, "resultado")).filter((m) => m.subjectId === doc.id);
    const resultado = await attachmentOf(mail!, "ResultadoDte_", "RespuestaDTE");
    expect(resultado.valid).toBe(true);
    expect(resultado.xml).toContain("<EstadoDTE>2</EstadoDTE><EstadoDTEGlosa>RECHAZADO - RCD precio distinto al pactado</EstadoDTEGlosa><CodRchDsc>-1</CodRchDsc>");
    expectError(await h.call("POST", `/v1/received/${doc.id}/aceptar`, { key: a.key.key, body: {} }), 409, "CONFLICT");
  }, 60_000);

  test("a guía (52): NO_APLICA, no deadline; accepting records it and answers in XML without the registry", async () => {
    const { envelope } = await issuedToA(52);
    const doc = (await upload(envelope)).json.data.results[0].data;
    expect(doc).toMatchObject({ tipo: 52, estado: "NO_APLICA", plazo_hasta: null });
    const res = await h.call("POST", `/v1/received/${doc.id}/aceptar`, { key: a.key.key, body: {} });
    expect(res.json.data).toMatchObject({ estado: "ACEPTADO", eventos: [{ codigo: "ACD", origen: "timbre" }] });
  }, 60_000);

  test("permissions: received:read cannot import or decide", async () => {
    const { createKey } = await import("../../../test/support/fixtures.js");
    const readOnly = await createKey(h, a.user.token, a.business.id, ["received:read"]);
    expectError(await upload("<x/>", readOnly.key), 403, "FORBIDDEN");
    expect((await h.call("GET", "/v1/received", { key: readOnly.key })).status).toBe(200);
    const noRead = await createKey(h, a.user.token, a.business.id, ["dte:read"]);
    expectError(await h.call("GET", "/v1/received", { key: noRead.key }), 403, "FORBIDDEN");
  });
});

describe("plazo_hasta", () => {
  test("8 calendar days in America/Santiago, across a DST change keeping the wall time", async () => {
    const { deadlineOf } = await import("./registry.js");
    // 2026-04-01 10:00 Chile (UTC-3) → 2026-04-09 10:00 Chile (UTC-4 after 2026-04-05).
    expect(deadlineOf(new Date("2026-04-01T13:00:00Z")).toISOString()).toBe("2026-04-09T14:00:00.000Z");
  });
});

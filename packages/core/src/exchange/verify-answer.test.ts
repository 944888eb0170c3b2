/** The issuer's check of a receiver's answers: every signature verified, fields read from signed elements only. */
import { describe, expect, test } from "bun:test";
import { ISSUER, sampleIdentity } from "../../test/support/signing-fixtures.js";
import { C14N_ALGORITHM, SII_NS } from "../xml/constants.js";
import { canonicalizeXml } from "../signature/canonical.js";
import { signReference } from "../signature/sign-reference.js";
import { buildEnvioRecibos, buildRecepcionEnvio, buildResultadoDte, verifyReceiverAnswer } from "./index.js";

const RECEIVER = "77777777-7";
const doc = { tipo: 33, folio: 15, fecha: "2026-01-15", rutEmisor: ISSUER.rut, rutReceptor: RECEIVER, montoTotal: 119000 };
const caratula = { rutResponde: RECEIVER, rutRecibe: ISSUER.rut, idRespuesta: 1, timestamp: "2026-01-15T10:11:12" };
const acuse = () => buildRecepcionEnvio({
  caratula,
  envios: [{ nombreEnvio: "envio.xml", recibidoAt: "2026-01-15T10:05:00", codEnvio: 1, envioDteId: "SetDoc", rutEmisor: ISSUER.rut, rutReceptor: RECEIVER, estado: 0, documentos: [{ ...doc, estado: 0 }] }],
  identity: sampleIdentity(),
});
const resultado = () => buildResultadoDte({ caratula: { ...caratula, idRespuesta: 2 }, resultados: [{ ...doc, codEnvio: 1, estado: 2, glosa: "RECHAZADO - Ley 19.983: precio distinto" }], identity: sampleIdentity() });
const recibos = () => buildEnvioRecibos({
  caratula: { rutResponde: RECEIVER, rutRecibe: ISSUER.rut, timestamp: "2026-01-16T09:00:00" },
  recibos: [{ ...doc, recinto: "Bodega central, Santiago", rutFirma: "11111111-1", timestamp: "2026-01-16T08:59:00" }],
  identity: sampleIdentity(),
});

describe("verifyReceiverAnswer", () => {
  test("an acuse: one recepcion entry per RecepcionDTE, with its EstadoRecepDTE", () => {
    const r = verifyReceiverAnswer(acuse());
    expect(r).toMatchObject({ ok: true, root: "RespuestaDTE", rutResponde: RECEIVER, rutRecibe: ISSUER.rut });
    expect(r.ok && r.entries).toEqual([{ kind: "recepcion", tipo: 33, folio: 15, fecha: "2026-01-15", rutEmisor: ISSUER.rut, rutReceptor: RECEIVER, montoTotal: 119000, codigo: 0, glosa: "DTE Recibido OK" }]);
  });

  test("a ResultadoDTE: resultado entry with EstadoDTE and its glosa", () => {
    const r = verifyReceiverAnswer(resultado());
    expect(r.ok && r.entries[0]).toMatchObject({ kind: "resultado", folio: 15, codigo: 2, glosa: "RECHAZADO - Ley 19.983: precio distinto" });
  });

  test("an EnvioRecibos: each Recibo's signature verified, recibo entries with code 0", () => {
    const r = verifyReceiverAnswer(recibos());
    expect(r).toMatchObject({ ok: true, root: "EnvioRecibos", rutResponde: RECEIVER });
    expect(r.ok && r.entries[0]).toMatchObject({ kind: "recibo", tipo: 33, folio: 15, montoTotal: 119000, codigo: 0 });
    expect(r.ok && r.entries[0]?.glosa).toContain("Bodega central");
  });

  test("tampered after signing (the total, the answer's code) → signature", () => {
    expect(verifyReceiverAnswer(acuse().replace("<MntTotal>119000</MntTotal>", "<MntTotal>119001</MntTotal>"))).toMatchObject({ ok: false, reason: "signature" });
    expect(verifyReceiverAnswer(resultado().replace("<EstadoDTE>2</EstadoDTE>", "<EstadoDTE>0</EstadoDTE>"))).toMatchObject({ ok: false, reason: "signature" });
    expect(verifyReceiverAnswer(recibos().replace("<Folio>15</Folio>", "<Folio>16</Folio>"))).toMatchObject({ ok: false, reason: "signature" });
  });

  test("an EnvioRecibos whose SetRecibos is re-signed over a forged Recibo still fails on the Recibo's own signature", () => {
    const forgedSet = /<SetRecibos[\s\S]*<\/SetRecibos>/.exec(recibos())?.[0].replace("<Folio>15</Folio>", "<Folio>16</Folio>") ?? "";
    const signature = signReference({ canonical: canonicalizeXml(forgedSet, { inScope: { "": SII_NS } }), uri: "#SetRecibos", transform: C14N_ALGORITHM, identity: sampleIdentity() });
    const r = verifyReceiverAnswer(`<EnvioRecibos xmlns="${SII_NS}" version="1.0">${forgedSet}${signature}</EnvioRecibos>`);
    expect(r).toMatchObject({ ok: false, reason: "signature" });
    expect(!r.ok && r.message).toContain("Recibo 1");
  });

  test("a DTD, another root, garbage → format", () => {
    expect(verifyReceiverAnswer(`<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]>${acuse().replace(/^<\?xml[^>]*>/, "")}`)).toMatchObject({ ok: false, reason: "format" });
    expect(verifyReceiverAnswer("<EnvioDTE/>")).toMatchObject({ ok: false, reason: "format" });
    expect(verifyReceiverAnswer("<RespuestaDTE>")).toMatchObject({ ok: false, reason: "format" });
  });
});

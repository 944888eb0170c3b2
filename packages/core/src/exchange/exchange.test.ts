import { describe, expect, test } from "bun:test";
import { DOMParser } from "@xmldom/xmldom";
import { validateXsd } from "@timbre/xsd";
import { SignedXml } from "xml-crypto";
import { verifyWithXmlCrypto, verifyWithXmldsigjs } from "../../test/support/independent-verify.js";
import { ISSUER, SAMPLE_RESOLUTION, SAMPLE_T33, SAMPLE_TIMESTAMP, sampleIdentity } from "../../test/support/signing-fixtures.js";
import { issueCaf } from "../caf/issue-caf.js";
import type { DocumentInput } from "../document/types.js";
import { isTimbreError } from "../errors/index.js";
import { generateAuthorityKey } from "../testing/generate-authority-key.js";
import { computeTotals } from "../totals/index.js";
import { buildEnvelope } from "../xml/build-envelope.js";
import { buildSignedDte } from "../xml/build-signed-dte.js";
import { encodeLatin1 } from "../xml/latin1.js";
import { C14N_ALGORITHM, SII_NS } from "../xml/constants.js";
import { canonicalizeXml } from "../signature/canonical.js";
import { signReference } from "../signature/sign-reference.js";
import {
  buildEnvioRecibos,
  buildRecepcionEnvio,
  buildResultadoDte,
  cleanForSchema,
  DECLARACION_RECIBO,
  verifyReceivedEnvelope,
} from "./index.js";

const RECEIVER = "77777777-7";
const authority = generateAuthorityKey(100);
const otherAuthority = generateAuthorityKey(300);
const caf = issueCaf({ authority, rut: ISSUER.rut, razonSocial: ISSUER.razonSocial, tipo: 33, desde: 1, hasta: 50, fechaAutorizacion: "2026-01-01" }).caf;
const input = (folio: number, receiver = RECEIVER): DocumentInput => ({
  ...SAMPLE_T33,
  folio,
  receiver: { ...SAMPLE_T33.receiver, rut: receiver, razonSocial: "Comprador SpA" },
});
const signed = (folio: number, receiver = RECEIVER) =>
  buildSignedDte({ input: input(folio, receiver), totals: computeTotals(input(folio, receiver)), caf, identity: sampleIdentity(), timestamp: SAMPLE_TIMESTAMP });
const envelope = (dtes: string[], rutReceptor = RECEIVER) =>
  buildEnvelope({ kind: "EnvioDTE", rutEmisor: ISSUER.rut, rutEnvia: "11111111-1", rutReceptor, resolution: SAMPLE_RESOLUTION, dtes, identity: sampleIdentity(), timestamp: SAMPLE_TIMESTAMP });
const verify = (xml: string | Uint8Array) => verifyReceivedEnvelope(xml, { rutReceptor: RECEIVER, authorities: [authority] });

/** xml-crypto's verdict on the `index`-th Signature of `xml`, in context (certificate from KeyInfo). */
function xmlCryptoInContext(xml: string, index: number): boolean {
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const sig = doc.getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "Signature").item(index);
  const sx = new SignedXml({ getCertFromKeyInfo: SignedXml.getCertFromKeyInfo });
  sx.loadSignature(sig as unknown as Node);
  return sx.checkSignature(xml);
}

const doc = { tipo: 33, folio: 15, fecha: "2026-01-15", rutEmisor: ISSUER.rut, rutReceptor: RECEIVER, montoTotal: 119000 };
const caratula = { rutResponde: RECEIVER, rutRecibe: ISSUER.rut, idRespuesta: 1, contacto: { nombre: "Juan Pérez", email: "dte@receptor.cl" }, timestamp: "2026-01-15T10:11:12" };

describe("verifyReceivedEnvelope", () => {
  test("a genuine envelope addressed to the receiver: every document verified, cut-out signature, its text unchanged", () => {
    const dtes = [signed(1), signed(2)];
    const xml = envelope(dtes.map((d) => d.xml));
    const r = verify(encodeLatin1(xml));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.caratula.rutReceptor).toBe(RECEIVER);
    expect(r.setId).toBe("SetDoc");
    expect(r.digest).toMatch(/^[A-Za-z0-9+/]{27}=$/);
    expect(r.documents.map((d) => [d.tipo, d.folio, d.verified, d.idk])).toEqual([[33, 1, true, 100], [33, 2, true, 100]]);
    expect(r.documents[0]?.verificacion).toEqual({ firma: "ok", firma_variante: "separado", timbre: "ok", caf: "ok", receptor: "ok", emisor: "ok" });
    expect(r.documents[0]?.xml).toBe(dtes[0]?.xml.replace(/^<\?xml[^>]*>\s*/, "").trimEnd() ?? "");
    expect(r.documents[0]?.emisor).toEqual({ rut: ISSUER.rut, razonSocial: ISSUER.razonSocial, giro: ISSUER.giro });
    expect(r.documents[0]?.montoTotal).toBe(computeTotals(input(1)).montoTotal);
    expect(r.documents[0]?.items.length).toBe(2);
  });

  test("envelope-level refusals: DTD, tampered envelope, another receiver, not an EnvioDTE", () => {
    const xml = envelope([signed(3).xml]);
    const withDtd = xml.replace("<EnvioDTE", '<!DOCTYPE x [<!ENTITY a "b">]><EnvioDTE');
    expect(verify(withDtd)).toMatchObject({ ok: false, reason: "format" });
    expect(verify(xml.replace("<TmstFirmaEnv>2", "<TmstFirmaEnv>1"))).toMatchObject({ ok: false, reason: "signature" });
    expect(verify(envelope([signed(3).xml], "88888888-8"))).toMatchObject({ ok: false, reason: "not_addressed" });
    expect(verify("<RespuestaDTE/>")).toMatchObject({ ok: false, reason: "format" });
    expect(verify("<EnvioDTE><oops></EnvioDTE>")).toMatchObject({ ok: false, reason: "format" });
  });

  test("per-document failures are reported per check, the rest of the envelope stays verified", () => {
    const good = signed(4).xml;
    const otherReceiver = signed(5, "88888888-8").xml;
    const r = verify(envelope([good, otherReceiver]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.documents[0]?.verified).toBe(true);
    expect(r.documents[1]).toMatchObject({ verified: false, authentic: true, verificacion: { receptor: "otro_receptor", firma: "ok" } });
    // The CAF checked against another environment's authority.
    const live = verifyReceivedEnvelope(envelope([good]), { rutReceptor: RECEIVER, authorities: [{ idk: 300, publicKey: otherAuthority.publicKey }] });
    expect(live.ok && live.documents[0]?.verificacion.caf).toBe("autoridad_desconocida");
    expect(live.ok && live.documents[0]?.authentic).toBe(false);
  });

  test("a DTE signed inside the envelope (in-context layout) verifies as en_contexto", () => {
    // A DTE that declares no namespace of its own, inside an envelope whose root declares only SiiDte: in context its
    // Documento canonicalizes as it was signed; cut out alone it is a no-namespace document whose digest differs.
    const noNs = signed(6).xml.replace(/^<\?xml[^>]*>\s*/, "").replace(' xmlns="http://www.sii.cl/SiiDte"', "");
    const setDte = /<SetDTE[\s\S]*<\/SetDTE>/.exec(envelope([signed(6).xml]))?.[0].replace(/<DTE [\s\S]*<\/DTE>/, noNs) ?? "";
    const canonical = canonicalizeXml(setDte, { inScope: { "": SII_NS } });
    const signature = signReference({ canonical, uri: "#SetDoc", transform: C14N_ALGORITHM, identity: sampleIdentity() });
    const r = verify(`<EnvioDTE xmlns="${SII_NS}" version="1.0">${setDte}${signature}</EnvioDTE>`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.documents[0]?.verificacion.firma_variante).toBe("en_contexto");
    expect(r.documents[0]?.verified).toBe(true);
  });

  test("a tampered DTE inside a re-signed envelope: firma invalida, not authentic", () => {
    const tampered = signed(7).xml.replace("<NmbItem>Servicio", "<NmbItem>Servicios");
    const r = verify(envelope([tampered]));
    expect(r.ok && r.documents[0]?.verificacion.firma).toBe("invalida");
    expect(r.ok && r.documents[0]?.authentic).toBe(false);
  });

  test("cleanForSchema drops vendor DocPersonalizado only", () => {
    expect(cleanForSchema("<DTE><Documento/><Signature/><DocPersonalizado dte=\"x\"><a/></DocPersonalizado></DTE>")).toBe("<DTE><Documento/><Signature/></DTE>");
  });
});

describe("answers: schema-valid, signed, verified by xml-crypto and xmldsigjs", () => {
  test("RespuestaDTE with RecepcionEnvio", async () => {
    const xml = buildRecepcionEnvio({
      caratula,
      envios: [{ nombreEnvio: "dte_76192083-9_T33F15.xml", recibidoAt: "2026-01-15T10:05:00", codEnvio: 1, envioDteId: "SetDoc", digest: "3eT0f7wZb7o1k1Yq7oZ1m0QfW0E=", rutEmisor: ISSUER.rut, rutReceptor: RECEIVER, estado: 0, nroDte: 2, documentos: [{ ...doc, estado: 0 }] }],
      identity: sampleIdentity(),
    });
    const xsd = await validateXsd(encodeLatin1(xml), "RespuestaDTE");
    expect(xsd.errors).toEqual([]);
    expect(xsd.valid).toBe(true);
    expect(verifyWithXmlCrypto(xml)).toBe(true);
    expect(await verifyWithXmldsigjs(xml)).toBe(true);
    expect(xml).toContain("<EstadoRecepEnv>0</EstadoRecepEnv><RecepEnvGlosa>Envio Recibido Conforme</RecepEnvGlosa><NroDTE>2</NroDTE>");
    expect(xml).not.toContain("xmlns:xsi");
  });

  test("RespuestaDTE with ResultadoDTE (accepted and rejected); a tampered copy fails the independent check", async () => {
    const xml = buildResultadoDte({
      caratula: { ...caratula, idRespuesta: 2 },
      resultados: [
        { ...doc, codEnvio: 1, estado: 0, glosa: "ACEPTADO OK" },
        { ...doc, folio: 16, codEnvio: 1, estado: 2, glosa: "RECHAZADO - Ley 19.983: precio distinto al pactado 🙂" },
      ],
      identity: sampleIdentity(),
    });
    expect((await validateXsd(encodeLatin1(xml), "RespuestaDTE")).valid).toBe(true);
    expect(verifyWithXmlCrypto(xml)).toBe(true);
    expect(await verifyWithXmldsigjs(xml)).toBe(true);
    expect(xml).toContain("<CodRchDsc>-1</CodRchDsc>");
    expect(xml).toContain("pactado ?");
    expect(verifyWithXmlCrypto(xml.replace("<EstadoDTE>0", "<EstadoDTE>1"))).toBe(false);
  });

  test("EnvioRecibos: the Ley 19.983 declaration; each Recibo verifies cut out and in context, SetRecibos in context", async () => {
    const xml = buildEnvioRecibos({
      caratula: { rutResponde: RECEIVER, rutRecibe: ISSUER.rut, timestamp: "2026-01-16T09:00:00" },
      recibos: [
        { ...doc, recinto: "Bodega central, Santiago", rutFirma: "11111111-1", timestamp: "2026-01-16T08:59:00" },
        { ...doc, folio: 16, recinto: "Bodega central, Santiago", rutFirma: "11111111-1", timestamp: "2026-01-16T08:59:00" },
      ],
      identity: sampleIdentity(),
    });
    const xsd = await validateXsd(encodeLatin1(xml), "EnvioRecibos");
    expect(xsd.errors).toEqual([]);
    expect(xml).toContain(`<Declaracion>${DECLARACION_RECIBO}</Declaracion>`);
    expect(verifyWithXmlCrypto(xml)).toBe(true); // SetRecibos
    expect(await verifyWithXmldsigjs(xml)).toBe(true);
    expect(xmlCryptoInContext(xml, 0)).toBe(true);
    expect(xmlCryptoInContext(xml, 1)).toBe(true);
    const recibos = [...xml.matchAll(/<Recibo [\s\S]*?<\/Recibo>/g)].map((m) => m[0]);
    expect(recibos.length).toBe(2);
    for (const recibo of recibos) {
      expect(verifyWithXmlCrypto(recibo)).toBe(true);
      expect(await verifyWithXmldsigjs(recibo)).toBe(true);
    }
  });

  test("what the schemas refuse is refused before signing: tipo 43, IdRespuesta 0, empty recinto", () => {
    const code = (f: () => unknown) => {
      try {
        f();
        return null;
      } catch (e) {
        return isTimbreError(e) ? `${e.code}:${(e.details as { field: string }).field}` : String(e);
      }
    };
    expect(code(() => buildResultadoDte({ caratula, resultados: [{ ...doc, tipo: 43, codEnvio: 1, estado: 0, glosa: "ACEPTADO OK" }], identity: sampleIdentity() }))).toBe("VALIDATION_ERROR:resultados[0].tipo");
    expect(code(() => buildRecepcionEnvio({ caratula: { ...caratula, idRespuesta: 0 }, envios: [{ nombreEnvio: "x", recibidoAt: "2026-01-15T10:05:00", codEnvio: 1, envioDteId: "SetDoc", estado: 0, documentos: [] }], identity: sampleIdentity() }))).toBe("VALIDATION_ERROR:caratula.idRespuesta");
    expect(code(() => buildEnvioRecibos({ caratula: { rutResponde: RECEIVER, rutRecibe: ISSUER.rut, timestamp: "2026-01-16T09:00:00" }, recibos: [{ ...doc, recinto: " ", rutFirma: "11111111-1", timestamp: "2026-01-16T08:59:00" }], identity: sampleIdentity() }))).toBe("VALIDATION_ERROR:recibos[0].recinto");
  });
});

/**
 * The sandbox's result mail (BRIEF-intercambio §5): every reviewed EnvioDTE envelope yields one RESULTADO_ENVIO,
 * valid against RespSII_v10.xsd, naming the rejected and remarked documents with their codes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { validateXsd } from "@timbre/xsd";
import type { SiiResultMail } from "../src/sandbox/index.js";
import { EMISOR, envelopeBytes, startWorld, type World } from "./support/world.js";

describe("the sandbox's RESULTADO_ENVIO mail", () => {
  let world: World;
  const mails: SiiResultMail[] = [];
  const waiters: Array<() => void> = [];
  beforeAll(async () => {
    world = await startWorld({ resultMail: { send: (mail) => { mails.push(mail); waiters.splice(0).forEach((w) => w()); } } });
  });
  afterAll(() => world.stop());

  async function mailFor(trackId: string): Promise<SiiResultMail> {
    for (let i = 0; i < 50; i++) {
      const found = mails.find((m) => m.trackId === trackId);
      if (found) return found;
      await new Promise<void>((resolve) => { waiters.push(resolve); setTimeout(resolve, 100); });
    }
    throw new Error(`no result mail for ${trackId}`);
  }

  test("a rejected, a remarked and an accepted factura → one XSD-valid mail listing the first two with their codes", async () => {
    const xml = await envelopeBytes(world, { docs: [{ folio: 301, receptor: "Cliente [sandbox:rechazo]" }, { folio: 302, receptor: "Cliente [sandbox:reparos]" }, { folio: 303 }] });
    const { trackId } = await world.client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: EMISOR });
    const mail = await mailFor(trackId);
    expect(mail.rutEmisor).toBe(EMISOR);
    expect(mail.subject).toBe(`Certificacion - Resultado de Revision Envio ${Number(trackId)} - ${EMISOR}`);
    const schema = await validateXsd(mail.xml, "RESULTADO_ENVIO");
    expect(schema.errors).toEqual([]);
    expect(schema.valid).toBe(true);
    expect(mail.xml).toContain(`<TRACKID>${Number(trackId)}</TRACKID>`);
    expect(mail.xml).toContain("<ESTADO>EPR - Envío procesado</ESTADO>");
    expect(mail.xml).toContain("<SUBTOTAL><TIPODOC>33</TIPODOC><INFORMADO>3</INFORMADO><RECHAZO>1</RECHAZO><REPARO>1</REPARO><ACEPTA>2</ACEPTA></SUBTOTAL>");
    expect(mail.xml).toMatch(/<REVISIONDTE><FOLIO>301<\/FOLIO><TIPODTE>33<\/TIPODTE><ESTADO>RCH - [^<]+<\/ESTADO><DETALLE>\(HED-3-305\) [^<]+<\/DETALLE><\/REVISIONDTE>/);
    expect(mail.xml).toMatch(/<REVISIONDTE><FOLIO>302<\/FOLIO><TIPODTE>33<\/TIPODTE><ESTADO>RLV - [^<]+<\/ESTADO><DETALLE>\(HED-1-863\) [^<]+<\/DETALLE>/);
    expect(mail.xml).not.toContain("<FOLIO>303</FOLIO>");
  }, 30_000);

  test("a chosen code ([sandbox:rechazo=DTE-3-101]) is the one mailed", async () => {
    const xml = await envelopeBytes(world, { docs: [{ folio: 304, receptor: "X [sandbox:rechazo=DTE-3-101]" }] });
    const { trackId } = await world.client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: EMISOR });
    const mail = await mailFor(trackId);
    expect((await validateXsd(mail.xml, "RESULTADO_ENVIO")).valid).toBe(true);
    expect(mail.xml).toContain("<DETALLE>(DTE-3-101) Folio para este Tipo de documento ya fue recibido en el SII</DETALLE>");
  }, 30_000);

  test("an envelope rejected at its carátula (RCT) → the mail carries ERRORENVIO and no REVISIONENVIO", async () => {
    const xml = await envelopeBytes(world, { docs: [{ folio: 305 }], resolution: { numero: 80, fecha: "2014-08-22" } });
    const { trackId } = await world.client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: EMISOR });
    const mail = await mailFor(trackId);
    expect((await validateXsd(mail.xml, "RESULTADO_ENVIO")).valid).toBe(true);
    expect(mail.xml).toMatch(/<ESTADO>RCT - [^<]+<\/ESTADO>/);
    expect(mail.xml).toMatch(/<ERRORENVIO><DETERRENVIO>\(CRT-3-19\) [^<]+<\/DETERRENVIO>/);
    expect(mail.xml).not.toContain("REVISIONENVIO");
  }, 30_000);
});

/**
 * Received 46 and 43 (issue 43 with API.md §12): a buyer's factura de compra and an agent's liquidación-factura,
 * issued by B to A, import verified like a 33 with the issuer's own total, print from the received XML, and follow
 * §12's table (a 43 is in the registry with its 8 days; a 46 is not).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { encodeLatin1 } from "@timbre/core";
import { createHarness, describeDrivers, type Harness } from "../../../test/support/harness.js";
import { emitter, RECEPTOR } from "../../../test/support/emission.js";
import { refreshDocumentStatus } from "../../dispatch/refresh-document-status.js";
import { receiverEnvelopeOf } from "../../intercambio/receiver-envelope.js";

const A_RUT = "77777777-7";
const B_RUT = "76192083-9";
const TO_A = { ...RECEPTOR, rut: A_RUT, razon_social: "Compradora A SpA" };

const PURCHASE = { tipo: 46, receptor: TO_A, items: [{ nombre: "Trigo", cantidad: 2, precio: 5000, unidad: "Kg", retencion: 34 }], forma_pago: 1 };
const LIQUIDATION = {
  tipo: 43,
  receptor: TO_A,
  liquidacion: {
    documentos: [{ tipo_doc_liq: 33, nombre: "NETO FACTURAS", cantidad: 3, monto: 165775 }, { tipo_doc_liq: 33, nombre: "EXENTO", cantidad: 1, monto: 55068, exento: true }],
    comisiones: [{ tipo: "C", descripcion: "COMISION", monto_neto: 4834 }],
  },
};

describeDrivers("received 46 and 43", (driver) => {
  let h: Harness;
  let a: Awaited<ReturnType<typeof emitter>>;
  let b: Awaited<ReturnType<typeof emitter>>;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", INBOUND_DOMAIN: "in.timbre.test" });
    b = await emitter(h, { rut: B_RUT, tipos: [43, 46] });
    a = await emitter(h, { rut: A_RUT, tipos: [] });
  }, 60_000);
  afterAll(async () => h?.close());

  const issuedToA = async (body: Record<string, unknown>) => {
    const res = await h.call("POST", "/v1/dte/emit", { key: b.key.key, body });
    expect(res.json.error).toBeUndefined();
    const id = res.json.data.id as string;
    expect((await refreshDocumentStatus(h.deps, id))?.estado).toBe("ACEPTADO");
    return { emitted: res.json.data as { folio: number; monto_total: number }, envelope: await receiverEnvelopeOf(h.deps, id) };
  };
  const imported = async (envelope: string) => {
    const res = await h.call("POST", "/v1/received", { key: a.key.key, raw: encodeLatin1(envelope), headers: { "content-type": "application/xml" } });
    expect(res.status).toBe(201);
    const [result] = res.json.data.results;
    expect(result.success).toBe(true);
    return result.data;
  };
  const printed = async (id: string) => {
    const pdf = await h.call("GET", `/v1/received/${id}/pdf`, { key: a.key.key });
    expect(pdf.status).toBe(200);
    expect(pdf.text.startsWith("%PDF-")).toBe(true);
  };

  test("a 46 imports verified with the issuer's total, NO_APLICA (no registry, no deadline), and prints", async () => {
    const { emitted, envelope } = await issuedToA(PURCHASE);
    const doc = await imported(envelope);
    expect(doc).toMatchObject({ tipo: 46, folio: emitted.folio, monto_total: emitted.monto_total, estado: "NO_APLICA", plazo_hasta: null, emisor: { rut: B_RUT } });
    expect(doc.verificacion).toMatchObject({ firma: "ok", timbre: "ok", caf: "ok", receptor: "ok" });
    await printed(doc.id);
  }, 60_000);

  test("a 43 imports verified with the issuer's total, SIN_RESPUESTA with its 8 days from the registry, and prints", async () => {
    const { emitted, envelope } = await issuedToA(LIQUIDATION);
    const doc = await imported(envelope);
    expect(doc).toMatchObject({ tipo: 43, folio: emitted.folio, monto_total: emitted.monto_total, estado: "SIN_RESPUESTA", emisor: { rut: B_RUT } });
    expect(doc.verificacion).toMatchObject({ firma: "ok", timbre: "ok", caf: "ok", receptor: "ok" });
    expect(doc.plazo_hasta).not.toBeNull();
    await printed(doc.id);
  }, 60_000);
});

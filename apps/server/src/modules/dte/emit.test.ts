import { afterAll, beforeAll, expect, test } from "bun:test";
import { verifyDte, verifyEnvelope } from "@timbre/core/signature";
import { validateXsd } from "@timbre/xsd";
import { eq } from "drizzle-orm";
import { documents, envelopes } from "../../db/documents.js";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { emitBody, emitter, serveOverHttp } from "../../../test/support/emission.js";
import { refreshDocumentStatus } from "../../dispatch/refresh-document-status.js";

describeDrivers("POST /v1/dte/emit over HTTP", (driver) => {
  let h: Harness;
  let http: ReturnType<typeof serveOverHttp>;
  let key: string;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    http = serveOverHttp(h);
    key = (await emitter(h)).key.key;
  }, 60_000);
  afterAll(async () => {
    await http?.close();
    await h?.close();
  });

  const emitted: Record<number, { id: string; folio: number; monto_total: number; fecha: string }> = {};

  for (const tipo of [33, 34, 39, 41]) {
    test(`tipo ${tipo} → 201 ENVIADO with a track id, then ACEPTADO`, async () => {
      const res = await http.call("POST", "/v1/dte/emit", { key, body: emitBody(tipo) });
      expect(res.status).toBe(201);
      const dte = res.json.data;
      expect(dte).toMatchObject({ tipo, folio: 1, estado: "ENVIADO", environment: "test", pdf_url: `/v1/dte/${dte.id}/pdf`, xml_url: `/v1/dte/${dte.id}/xml` });
      expect(dte.track_id).toMatch(/^\d+$/);
      expect(dte.id).toMatch(/^dte_[0-9a-z]{26}$/);
      emitted[tipo] = dte;
      // The answer is built from what the upload wrote, not read back: it must equal the stored document.
      const read = await http.call("GET", `/v1/dte/${dte.id}`, { key });
      expect(read.json.data).toMatchObject(dte);
      const after = await refreshDocumentStatus(h.deps, dte.id);
      expect(after?.estado).toBe("ACEPTADO");
      const status = await http.call("GET", `/v1/dte/${dte.id}/status`, { key });
      expect(status.json.data.estado).toBe("ACEPTADO");
      expect(status.json.data.historial.map((e: { estado: string }) => e.estado)).toEqual(["PENDIENTE", "ENVIADO", "ACEPTADO"]);
      expect(status.json.data.sii.estado_envio).toBe("EPR");
    }, 30_000);
  }

  for (const tipo of [56, 61]) {
    test(`note ${tipo} referencing the 33 → 201 ENVIADO, then ACEPTADO`, async () => {
      const ref = emitted[33];
      if (!ref) throw new Error("33 not emitted");
      const body = emitBody(tipo, { items: [{ nombre: "Ajuste", cantidad: 1, precio: 1000 }], referencia: { tipo_doc: 33, folio: ref.folio, fecha: ref.fecha, razon: "Ajuste de precio" } });
      const res = await http.call("POST", "/v1/dte/emit", { key, body });
      expect(res.status).toBe(201);
      expect(res.json.data.estado).toBe("ENVIADO");
      const detail = await http.call("GET", `/v1/dte/${res.json.data.id}`, { key });
      expect(detail.json.data.referencias[0]).toMatchObject({ tipo_doc: 33, folio: ref.folio, codigo: 3 });
      expect((await refreshDocumentStatus(h.deps, res.json.data.id))?.estado).toBe("ACEPTADO");
    }, 30_000);
  }

  test("annulling a boleta to the anonymous consumer needs no giro or address: the 61 is XSD-valid, ACEPTADO, printed", async () => {
    const boleta = emitted[39];
    if (!boleta) throw new Error("39 not emitted");
    const res = await http.call("POST", `/v1/dte/${boleta.id}/anular`, { key });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ tipo: 61, estado: "ENVIADO", monto_total: boleta.monto_total, receptor: { rut: "66666666-6", razon_social: "Consumidor final" } });
    const id = res.json.data.id;
    expect((await refreshDocumentStatus(h.deps, id))?.estado).toBe("ACEPTADO");
    const envio = await http.call("GET", `/v1/dte/${id}/xml?envio=true`, { key });
    const xsd = await validateXsd(envio.bytes, "EnvioDTE");
    expect(xsd.errors ?? []).toEqual([]);
    const xml = new TextDecoder("latin1").decode((await http.call("GET", `/v1/dte/${id}/xml`, { key })).bytes);
    expect(xml).toContain("<RUTRecep>66666666-6</RUTRecep>");
    expect(xml).not.toContain("<GiroRecep>");
    expect(xml).toMatch(new RegExp(`<TpoDocRef>39</TpoDocRef><FolioRef>${boleta.folio}</FolioRef>`));
    const pdf = await http.call("GET", `/v1/dte/${id}/pdf`, { key });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
  }, 30_000);

  test("stored XML: exact bytes, XSD-valid envelope, signatures verify", async () => {
    for (const tipo of [33, 39]) {
      const dte = emitted[tipo];
      if (!dte) throw new Error("missing");
      const xml = await http.call("GET", `/v1/dte/${dte.id}/xml`, { key });
      expect(xml.status).toBe(200);
      expect(xml.headers.get("content-type")).toBe("application/xml; charset=ISO-8859-1");
      expect(verifyDte(xml.bytes).valid).toBe(true);
      const envio = await http.call("GET", `/v1/dte/${dte.id}/xml?envio=true`, { key });
      expect(envio.status).toBe(200);
      const root = tipo === 39 ? "EnvioBOLETA" : "EnvioDTE";
      expect(envio.headers.get("content-disposition")).toBe(`inline; filename="${root}-${tipo}-${dte.folio}.xml"`);
      const xsd = await validateXsd(envio.bytes, root);
      expect(xsd.errors ?? []).toEqual([]);
      expect(xsd.valid).toBe(true);
      const verified = verifyEnvelope(envio.bytes);
      expect(verified.errors).toEqual([]);
      expect(verified.valid).toBe(true);
      // Stored without the document's bytes (they are in documents.xml) and joined again for this answer.
      const body = Buffer.from(xml.bytes).subarray(Buffer.from(xml.bytes).indexOf("<DTE"));
      const bodyEnd = body.lastIndexOf(">") + 1;
      expect(Buffer.from(envio.bytes).includes(body.subarray(0, bodyEnd))).toBe(true);
      const [doc] = await h.deps.db.select({ envelopeId: documents.envelopeId }).from(documents).where(eq(documents.id, dte.id));
      const [stored] = await h.deps.db.select().from(envelopes).where(eq(envelopes.id, doc?.envelopeId ?? ""));
      expect(stored?.layout?.map(([id]) => id)).toContain(dte.id);
      expect(stored?.xml.byteLength).toBeLessThanOrEqual(envio.bytes.byteLength - bodyEnd);
    }
  }, 60_000);

  test("a factura with additional taxes (extension): ILA in the totals, the XML and the detail; ACEPTADO; its annulment carries the same taxes", async () => {
    const items = [
      { nombre: "Bebida cola 3 L", cantidad: 24, precio: 1890, impuesto_adicional: 271 },
      { nombre: "Vino tinto", cantidad: 6, precio: 4990, impuesto_adicional: 25 },
      { nombre: "Vasos", cantidad: 100, precio: 25 },
    ];
    // 271: 45 360 × 18 % = 8 164.8; 25: 29 940 × 20.5 % = 6 137.7; neto 77 800, IVA 14 782
    const taxes = [{ codigo: 271, tasa: 18, base: 45360, monto: 8165 }, { codigo: 25, tasa: 20.5, base: 29940, monto: 6138 }];
    const preview = await http.call("POST", "/v1/dte/preview", { key, body: emitBody(33, { items }) });
    expect(preview.json.data.totals).toMatchObject({ monto_neto: 77800, monto_iva: 14782, monto_total: 77800 + 14782 + 8165 + 6138, impuestos_adicionales: taxes });
    const res = await http.call("POST", "/v1/dte/emit", { key, body: emitBody(33, { items }) });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ monto_neto: 77800, monto_iva: 14782, monto_total: 106885 });
    const id = res.json.data.id;
    expect((await refreshDocumentStatus(h.deps, id))?.estado).toBe("ACEPTADO");
    const detail = (await http.call("GET", `/v1/dte/${id}`, { key })).json.data;
    expect(detail.impuestos_adicionales).toEqual(taxes);
    expect(detail.items.map((i: { impuesto_adicional?: number }) => i.impuesto_adicional ?? null)).toEqual([271, 25, null]);
    const xml = new TextDecoder("latin1").decode((await http.call("GET", `/v1/dte/${id}/xml`, { key })).bytes);
    expect(xml).toContain("<IVA>14782</IVA><ImptoReten><TipoImp>271</TipoImp><TasaImp>18</TasaImp><MontoImp>8165</MontoImp></ImptoReten>");
    expect(xml).toContain("<MntTotal>106885</MntTotal>");
    expect((await http.call("GET", `/v1/dte/${id}/pdf`, { key })).status).toBe(200);

    const annulled = await http.call("POST", `/v1/dte/${id}/anular`, { key });
    expect(annulled.status).toBe(201);
    expect(annulled.json.data).toMatchObject({ tipo: 61, monto_total: 106885 });
    expect((await refreshDocumentStatus(h.deps, annulled.json.data.id))?.estado).toBe("ACEPTADO");
    const envio = await http.call("GET", `/v1/dte/${annulled.json.data.id}/xml?envio=true`, { key });
    expect((await validateXsd(envio.bytes, "EnvioDTE")).errors ?? []).toEqual([]);
    expect(new TextDecoder("latin1").decode(envio.bytes)).toContain("<TipoImp>25</TipoImp><TasaImp>20.5</TasaImp><MontoImp>6138</MontoImp>");

    // Boletas include every tax in their prices; unknown codes are listed with the ones offered.
    const boleta = await http.call("POST", "/v1/dte/emit", { key, body: emitBody(39, { items: [{ nombre: "Bebida", cantidad: 1, precio: 1500, impuesto_adicional: 27 }] }) });
    expect(boleta.status).toBe(422);
    expect(boleta.json.error.details.errors).toContainEqual(expect.objectContaining({ field: "items[0].impuesto_adicional", reason: "not_allowed" }));
    const unknown = await http.call("POST", "/v1/dte/emit", { key, body: emitBody(33, { items: [{ nombre: "Diésel", cantidad: 1, precio: 1500, impuesto_adicional: 28 }] }) });
    expect(unknown.status).toBe(422);
    expect(unknown.json.error.details.errors).toContainEqual(expect.objectContaining({ field: "items[0].impuesto_adicional", reason: "enum" }));
  }, 60_000);
});

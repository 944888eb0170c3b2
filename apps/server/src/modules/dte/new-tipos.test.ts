// The tipos with their own shape over HTTP against the sandbox SII (API.md §13): 46 factura de compra, 43
// liquidación-factura, 110 factura de exportación and its notes 111/112. Each is emitted, its envelope is XSD-valid,
// its signature verifies with xml-crypto and xmldsigjs (alone and inside the envelope), its TED with the CAF's key,
// the sandbox accepts it and its PDF417 decodes to the TED. Then the refusals and the annulment chains.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createPublicKey, verify } from "node:crypto";
import { validateXsd } from "@timbre/xsd";
import { expectError } from "../../../test/support/fixtures.js";
import { createHarness, describeDrivers, type Harness } from "../../../test/support/harness.js";
import { emitter, RECEPTOR, serveOverHttp } from "../../../test/support/emission.js";
import { eq } from "drizzle-orm";
import { documents } from "../../db/documents.js";
import { refreshDocumentStatus } from "../../dispatch/refresh-document-status.js";

const core = new URL("../../../../../packages/core/test/support/", import.meta.url).href;
const pdfTools = (await import(`${core}pdf.ts`)) as {
  rasterize(pdf: Uint8Array, index: number, dpi: number): Uint8Array;
  decodePdf417(png: Uint8Array): Promise<string[]>;
  pageTexts(pdf: Uint8Array): string[];
};
const verifier = (await import(`${core}independent-verify.ts`)) as {
  verifyWithXmldsigjs(xml: string): Promise<boolean>;
  verifyWithXmlCrypto(xml: string): boolean;
  cutDtes(envelope: string): string[];
};

/** LibreDTE's 046_004: 2 Kg of wheat at 5 000 with the partial retention 34 (4 %). */
const PURCHASE = {
  tipo: 46,
  receptor: { ...RECEPTOR, rut: "11111111-1", razon_social: "Agricultor Pérez" },
  items: [{ nombre: "Trigo", cantidad: 2, precio: 5000, unidad: "Kg", retencion: 34 }],
  forma_pago: 1,
};

/** The SII's certified 43 example (BRIEF-doctypes §1). */
const LIQUIDATION = {
  tipo: 43,
  receptor: { ...RECEPTOR, razon_social: "Mandante Ltda" },
  liquidacion: {
    documentos: [
      { tipo_doc_liq: 33, nombre: "NETO FACTURA ELECTRONICA 1515", cantidad: 1, unidad: "UN", monto: 165775 },
      { tipo_doc_liq: 33, nombre: "NETO FACTURAS", cantidad: 129, monto: 69180 },
      { tipo_doc_liq: 33, nombre: "EXENTO", cantidad: 22, monto: 55068, exento: true },
    ],
    comisiones: [{ tipo: "C", descripcion: "COMISION", monto_neto: 4834 }],
  },
};

/** S1's certified goods export (BRIEF-doctypes §3): 687 × 159 + freight 2069.28 + insurance 1215.22 = 112517.5 FRANCO SZ. */
const EXPORT = {
  tipo: 110,
  receptor: { razon_social: "IMPORTATORE SRL", extranjero: { nacionalidad: 504 }, direccion: "Via Roma 1, Genova", ciudad: "Genova" },
  items: [{ nombre: "CHATARRA", cantidad: 687, precio: 159, unidad: "PAR" }],
  moneda: "FRANCO SZ",
  tipo_cambio: 1075,
  forma_pago_exportacion: 1,
  exportacion: {
    modalidad_venta: 1, clausula_venta: 1, total_clausula: 112517.5, via_transporte: 1, puerto_embarque: 906, puerto_desembarque: 544,
    tara: 20, unidad_tara: 6, peso_bruto: 700, unidad_peso_bruto: 17, peso_neto: 687, unidad_peso_neto: 17,
    bultos: [{ tipo: 89, cantidad: 69, marcas: "S/M" }], flete: 2069.28, seguro: 1215.22, pais_receptor: 504, pais_destino: 504,
  },
};

const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);

/** The TED's FRMT checked with the key of the CAF it carries (RSASK's public half, `RSAPK` M and E). */
function tedVerifies(ted: string): boolean {
  const b64url = (s: string) => Buffer.from(s, "base64").toString("base64url");
  const m = /<RSAPK><M>([^<]+)<\/M><E>([^<]+)<\/E><\/RSAPK>/.exec(ted);
  const dd = /<DD>[\s\S]*<\/DD>/.exec(ted)?.[0];
  const frmt = /<FRMT algoritmo="SHA1withRSA">([^<]+)<\/FRMT>/.exec(ted)?.[1];
  if (!m?.[1] || !m[2] || !dd || !frmt) return false;
  const key = createPublicKey({ key: { kty: "RSA", n: b64url(m[1]), e: b64url(m[2]) }, format: "jwk" });
  return verify("sha1", Buffer.from(dd, "latin1"), key, Buffer.from(frmt, "base64"));
}

describeDrivers("documents of buyers, agents and exporters (43, 46, 110–112)", (driver) => {
  let h: Harness;
  let http: ReturnType<typeof serveOverHttp>;
  let key: string;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    http = serveOverHttp(h);
    const t = await emitter(h, { tipos: [33, 43, 46, 56, 61, 110, 111, 112] });
    key = t.key.key;
    // A 110 is issued from a city (CiudadOrigen, formato DTE A46).
    expect((await http.call("PUT", `/v1/businesses/${t.business.id}`, { key, body: { ciudad: "Santiago" } })).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await http?.close();
    await h?.close();
  });

  /** Emits, then checks everything "done" asks of each tipo; returns the document. */
  async function emitAndCheck(body: Record<string, unknown>, element: string) {
    const res = await http.call("POST", "/v1/dte/emit", { key, body });
    expect(res.status, res.text).toBe(201);
    return checkEmitted(res.json.data, element);
  }

  /** An emitted document: accepted, signed, timbred, enveloped and printed as "done" asks. */
  // The API's JSON as it comes (the assertions below say what it must hold).
  async function checkEmitted(doc: any, element: string) {
    expect((await refreshDocumentStatus(h.deps, doc.id))?.estado).toBe("ACEPTADO");
    const body = { tipo: doc.tipo };
    const xml = latin1((await http.call("GET", `/v1/dte/${doc.id}/xml`, { key })).bytes);
    expect(xml).toContain(`<${element} ID="T${body.tipo}F${doc.folio}">`);
    expect(await verifier.verifyWithXmldsigjs(xml)).toBe(true);
    expect(verifier.verifyWithXmlCrypto(xml)).toBe(true);
    const ted = /<TED[\s>][\s\S]*?<\/TED>/.exec(xml)?.[0] ?? "";
    expect(tedVerifies(ted)).toBe(true);
    const envio = await http.call("GET", `/v1/dte/${doc.id}/xml?envio=true`, { key });
    expect((await validateXsd(envio.bytes, "EnvioDTE")).errors ?? []).toEqual([]);
    const envelope = latin1(envio.bytes);
    expect(await verifier.verifyWithXmldsigjs(envelope)).toBe(true);
    expect(verifier.verifyWithXmlCrypto(envelope)).toBe(true);
    const pdf = await http.call("GET", `/v1/dte/${doc.id}/pdf`, { key });
    expect(pdf.status).toBe(200);
    const pages = pdfTools.pageTexts(pdf.bytes);
    expect(await pdfTools.decodePdf417(pdfTools.rasterize(pdf.bytes, pages.length - 1, 300))).toEqual([ted]);
    return { doc, xml, ted, pages };
  }

  test("46: the buyer retains 4 % of the IVA on wheat; total net + IVA − retained", async () => {
    const { doc, xml, pages } = await emitAndCheck(PURCHASE, "Documento");
    expect(doc).toMatchObject({ tipo: 46, monto_neto: 10000, monto_iva: 1900, monto_total: 11500, monto_iva_retenido: 400, monto_iva_no_retenido: 1500 });
    expect(xml).toContain("<ImptoReten><TipoImp>34</TipoImp><TasaImp>4</TasaImp><MontoImp>400</MontoImp></ImptoReten><IVANoRet>1500</IVANoRet><MntTotal>11500</MntTotal>");
    const printed = pages.join("\n");
    expect(printed).toContain("FACTURA DE COMPRA");
    expect(printed).toContain("IVA retenido trigo (4 %)\n-$ 400");
    expect(printed).toContain("IVA no retenido\n$ 1.500");
  }, 60_000);

  test("notes on a 46 repeat its retention: POST /anular issues a 61 retaining the same IVA", async () => {
    const purchase = await http.call("POST", "/v1/dte/emit", { key, body: { ...PURCHASE, items: [{ nombre: "P1", cantidad: 1, precio: 100000 }] } });
    expect(purchase.json.data).toMatchObject({ monto_total: 100000, monto_iva_retenido: 19000 }); // LibreDTE's 046_003
    const note = await http.call("POST", `/v1/dte/${purchase.json.data.id}/anular`, { key });
    expect(note.status, note.text).toBe(201);
    expect(note.json.data).toMatchObject({ tipo: 61, monto_neto: 100000, monto_iva: 19000, monto_total: 100000, monto_iva_retenido: 19000 });
    expect((await refreshDocumentStatus(h.deps, note.json.data.id))?.estado).toBe("ACEPTADO");
    const envio = await http.call("GET", `/v1/dte/${note.json.data.id}/xml?envio=true`, { key });
    expect((await validateXsd(envio.bytes, "EnvioDTE")).errors ?? []).toEqual([]);
    const xml = latin1(envio.bytes);
    expect(xml).toContain("<ImptoReten><TipoImp>15</TipoImp><TasaImp>19</TasaImp><MontoImp>19000</MontoImp></ImptoReten><MntTotal>100000</MntTotal>");
    expect(xml).toMatch(/<TpoDocRef>46<\/TpoDocRef><FolioRef>\d+<\/FolioRef><FchRef>[\d-]+<\/FchRef><CodRef>1<\/CodRef>/);
  }, 60_000);

  test("43: settled documents and the agent's commission; total owed to the principal", async () => {
    const { doc, xml, pages } = await emitAndCheck(LIQUIDATION, "Liquidacion");
    expect(doc).toMatchObject({ tipo: 43, monto_neto: 234955, monto_exento: 55068, monto_iva: 44641, monto_total: 328912 });
    expect(xml).toContain("<Comisiones><ValComNeto>4834</ValComNeto><ValComExe>0</ValComExe><ValComIVA>918</ValComIVA></Comisiones>");
    const printed = pages.join("\n");
    expect(printed).toContain("LIQUIDACI");
    expect(printed).toContain("NETO FACTURA ELECTRONICA 1515");
    expect(printed).toContain("COMISION: neto $ 4.834, exento $ 0, IVA $ 918");
    expect(printed).toContain("TOTAL\n$ 328.912");

    // A 61 may still correct the settled sales the classic way (CodRef 3).
    const credit = await http.call("POST", "/v1/dte/emit", { key, body: { tipo: 61, receptor: LIQUIDATION.receptor, items: [{ nombre: "Corrige venta liquidada", cantidad: 1, precio: 10000 }],
      referencia: { tipo_doc: 43, folio: doc.folio, fecha: doc.fecha, codigo: 3, razon: "Corrige monto" } } });
    expect(credit.status, credit.text).toBe(201);
    expect((await refreshDocumentStatus(h.deps, credit.json.data.id))?.estado).toBe("ACEPTADO");
  }, 60_000);

  test("43 annulled: POST /anular issues a 61 repeating its settled documents and commissions, with the 43's total", async () => {
    const liq = await http.call("POST", "/v1/dte/emit", { key, body: LIQUIDATION });
    expect(liq.status, liq.text).toBe(201);
    const note = await http.call("POST", `/v1/dte/${liq.json.data.id}/anular`, { key });
    expect(note.status, note.text).toBe(201);
    expect(note.json.data).toMatchObject({ tipo: 61, monto_neto: 234955, monto_exento: 55068, monto_iva: 44641, monto_total: 328912 });
    // Accepted by the sandbox, which compares an annulment's MntTotal with the annulled document's (REF-2-780).
    const { xml, pages } = await checkEmitted(note.json.data, "Documento");
    expect(xml).toContain("<Comisiones><ValComNeto>4834</ValComNeto><ValComExe>0</ValComExe><ValComIVA>918</ValComIVA></Comisiones><MntTotal>328912</MntTotal>");
    expect(xml).toMatch(/<TpoDocRef>43<\/TpoDocRef><FolioRef>\d+<\/FolioRef><FchRef>[\d-]+<\/FchRef><CodRef>1<\/CodRef>/);
    expect(xml).not.toContain("TpoDocLiq");
    expect(pages.join("\n")).toContain("TOTAL\n$ 328.912");
    expectError(await http.call("POST", `/v1/dte/${liq.json.data.id}/anular`, { key }), 422, "REFERENCE_INVALID");

    // A 43 with a negative commission cannot be annulled whole by a 61, whose amounts cannot be negative.
    const negative = await http.call("POST", "/v1/dte/emit", { key, body: { ...LIQUIDATION, liquidacion: { ...LIQUIDATION.liquidacion, comisiones: [{ tipo: "C", descripcion: "DEVOLUCION", monto_neto: -3301 }] } } });
    expect(negative.status, negative.text).toBe(201);
    const refused = await http.call("POST", `/v1/dte/${negative.json.data.id}/anular`, { key });
    expectError(refused, 422, "REFERENCE_INVALID");
    expect(refused.json.error.details.reason).toBe("negative_amounts");
  }, 90_000);

  test("43 in the registry of acceptances: its principal's claim reaches GET /aceptacion", async () => {
    const { doc } = await emitAndCheck({ ...LIQUIDATION, receptor: { ...LIQUIDATION.receptor, razon_social: "Mandante [sandbox:reclamo]" } }, "Liquidacion");
    const claimed = await http.call("GET", `/v1/dte/${doc.id}/aceptacion?refresh=true`, { key });
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.json.data).toMatchObject({ id: doc.id, tipo: 43, estado: "RECLAMADO" });
    expect(claimed.json.data.eventos.map((e: { codigo: string }) => e.codigo)).toEqual(["RCD"]);
  }, 60_000);

  let invoice: { id: string; folio: number; fecha: string };
  test("110: amounts in FRANCO SZ with 4 decimals, the pesos block, the TED's MNT unrounded", async () => {
    const { doc, xml, ted, pages } = await emitAndCheck(EXPORT, "Exportaciones");
    const printed = pages.join("\n");
    for (const words of ["FACTURA DE EXPORTACI", "TOTAL\nFRANCO SZ 112.517,50", "Total en pesos\n$ 120.956.313", "SAN ANTONIO", "CIF", "ITALIA", "PLANCHAS"]) expect(printed).toContain(words);
    expect((await http.call("GET", `/v1/dte/${doc.id}/pdf?cedible=true`, { key })).status).toBe(400);
    invoice = doc;
    expect(doc).toMatchObject({ tipo: 110, moneda: "FRANCO SZ", tipo_cambio: 1075, monto_total: 112517.5, monto_total_pesos: 120956313 });
    expect(doc.receptor.rut).toBe("55555555-5");
    expect(xml).toContain("<TpoMoneda>FRANCO SZ</TpoMoneda><MntExe>112517.5</MntExe><MntTotal>112517.5</MntTotal>");
    expect(xml).toContain("<OtraMoneda><TpoMoneda>PESO CL</TpoMoneda><TpoCambio>1075</TpoCambio><MntExeOtrMnda>120956313</MntExeOtrMnda><MntTotOtrMnda>120956313</MntTotOtrMnda></OtraMoneda>");
    expect(ted).toContain("<MNT>112517.5</MNT>");
    const summary = (await http.call("GET", `/v1/dte/resumen?desde=${doc.fecha}&hasta=${doc.fecha}`, { key })).json.data;
    // API.md §13: exports are summed in pesos.
    expect(summary.por_tipo ?? summary.tipos ?? summary).toEqual(expect.arrayContaining([expect.objectContaining({ tipo: 110, monto_total: 120956313 })]));
  }, 60_000);

  test("110 in lists and in the SII's status query: its own total in its currency, beside its pesos", async () => {
    const list = await http.call("GET", `/v1/dte?tipo=110&folio=${invoice.folio}`, { key });
    expect(list.json.data).toEqual([expect.objectContaining({ id: invoice.id, moneda: "FRANCO SZ", tipo_cambio: 1075, monto_exento: 112517.5, monto_total: 112517.5, monto_total_pesos: 120956313 })]);
    const [row] = await h.deps.db.select().from(documents).where(eq(documents.id, invoice.id));
    expect(row).toMatchObject({ moneda: "FRANCO SZ", montoTotal: 120956313 });
    expect(Number(row?.montoTotalMoneda)).toBe(112517.5);
    // Without its track id the document is resolved by QueryEstDte alone: the sandbox, like the SII, matches the
    // document's MntTotal truncated (112517), and answers DNK to its pesos.
    await h.deps.db.update(documents).set({ estado: "ENVIADO", trackId: null, sii: null }).where(eq(documents.id, invoice.id));
    const refreshed = await refreshDocumentStatus(h.deps, invoice.id);
    expect(refreshed?.estado).toBe("ACEPTADO");
    expect(JSON.stringify(refreshed?.sii)).toContain("DOK");
  }, 60_000);

  test("a 112 for a partial return (CodRef 3), then annulments: 110 → 112, 112 → 111", async () => {
    const credit = { ...EXPORT, tipo: 112, items: [{ nombre: "CHATARRA", cantidad: 229, precio: 159, unidad: "PAR" }], exportacion: undefined,
      referencia: { tipo_doc: 110, folio: invoice.folio, fecha: invoice.fecha, codigo: 3, razon: "DEVOLUCION DE MERCADERIAS" } };
    const { doc } = await emitAndCheck(credit, "Exportaciones");
    expect(doc).toMatchObject({ tipo: 112, monto_total: 36411, monto_total_pesos: 39141825 });

    const annul = await http.call("POST", `/v1/dte/${invoice.id}/anular`, { key, body: { razon: "Anula factura" } });
    expect(annul.status, annul.text).toBe(201);
    expect(annul.json.data).toMatchObject({ tipo: 112, monto_total: 112517.5, monto_total_pesos: 120956313 });
    expect((await refreshDocumentStatus(h.deps, annul.json.data.id))?.estado).toBe("ACEPTADO");
    const again = await http.call("POST", `/v1/dte/${invoice.id}/anular`, { key });
    expectError(again, 422, "REFERENCE_INVALID");

    const back = await http.call("POST", `/v1/dte/${annul.json.data.id}/anular`, { key });
    expect(back.status, back.text).toBe(201);
    expect(back.json.data).toMatchObject({ tipo: 111, monto_total: 112517.5 });
    const { xml } = await checkEmitted(back.json.data, "Exportaciones");
    expect(xml).toMatch(/<TpoDocRef>112<\/TpoDocRef><FolioRef>\d+<\/FolioRef><FchRef>[\d-]+<\/FchRef><CodRef>1<\/CodRef>/);
  }, 90_000);

  test("preview and batch check: totals and the unsigned branch of each, the PDF marked, no folio taken", async () => {
    for (const [body, element, total] of [[PURCHASE, "Documento", 11500], [LIQUIDATION, "Liquidacion", 328912], [EXPORT, "Exportaciones", 112517.5]] as const) {
      const preview = await http.call("POST", "/v1/dte/preview", { key, body });
      expect(preview.status, preview.text).toBe(200);
      expect(preview.json.data.totals.monto_total).toBe(total);
      expect(preview.json.data.xml_preview).toStartWith(`<${element} ID="T${body.tipo}F0"><Encabezado><IdDoc><TipoDTE>${body.tipo}</TipoDTE><Folio>0</Folio>`);
      const pdf = await http.call("POST", "/v1/dte/preview?format=pdf", { key, body });
      expect(pdf.status).toBe(200);
      expect(pdfTools.pageTexts(pdf.bytes).join("\n")).toContain("SIN VALIDEZ TRIBUTARIA");
    }
    const check = await http.call("POST", "/v1/dte/batch/preview", { key, body: { documents: [PURCHASE, LIQUIDATION, EXPORT, { ...EXPORT, moneda: "USD" }] } });
    expect(check.status, check.text).toBe(200);
    expect(check.json.data.results.map((r: { success: boolean }) => r.success)).toEqual([true, true, true, false]);
  }, 60_000);

  test("refusals: an ISO currency, no exchange rate, an unknown port, gross prices on a 46, a 112 on a 33, unknown fields", async () => {
    const fieldOf = (res: { json: { error: { details: { errors: Array<{ field: string; reason: string }> } } } }) => res.json.error.details.errors;
    const emit = (body: unknown) => http.call("POST", "/v1/dte/emit", { key, body });

    const usd = await emit({ ...EXPORT, moneda: "USD" });
    expectError(usd, 422, "VALIDATION_ERROR");
    expect(fieldOf(usd)).toContainEqual(expect.objectContaining({ field: "moneda", reason: "enum" }));
    const { tipo_cambio: _, ...withoutRate } = EXPORT;
    const noRate = await emit(withoutRate);
    expectError(noRate, 422, "VALIDATION_ERROR");
    expect(fieldOf(noRate)).toContainEqual(expect.objectContaining({ field: "tipo_cambio", reason: "required" }));
    const port = await emit({ ...EXPORT, exportacion: { ...EXPORT.exportacion, puerto_embarque: 12345 } });
    expectError(port, 422, "VALIDATION_ERROR");
    expect(fieldOf(port)).toContainEqual(expect.objectContaining({ field: "exportacion.puerto_embarque", reason: "enum" }));
    const noMarks = await emit({ ...EXPORT, exportacion: { ...EXPORT.exportacion, bultos: [{ tipo: 89, cantidad: 69 }] } });
    expect(fieldOf(noMarks)).toContainEqual(expect.objectContaining({ field: "exportacion.bultos[0].marcas", reason: "required" }));

    const gross = await emit({ ...PURCHASE, precios_brutos: true });
    expectError(gross, 422, "VALIDATION_ERROR");
    expect(fieldOf(gross)).toContainEqual(expect.objectContaining({ field: "precios_brutos", reason: "not_allowed" }));

    const onInvoice = await emit({ ...EXPORT, tipo: 112, exportacion: undefined, referencia: { tipo_doc: 33, folio: 1, fecha: invoice.fecha, codigo: 3 } });
    expectError(onInvoice, 422, "REFERENCE_INVALID");

    const stray = await emit({ ...EXPORT, precios_brutos: false, exportacion: { ...EXPORT.exportacion, barco: "X" } });
    expectError(stray, 422, "VALIDATION_ERROR");
    expect(fieldOf(stray)).toEqual(expect.arrayContaining([
      expect.objectContaining({ field: "precios_brutos", reason: "unknown" }),
      expect.objectContaining({ field: "exportacion.barco", reason: "unknown" }),
    ]));
    const liquidationItems = await emit({ ...LIQUIDATION, items: [{ nombre: "x", cantidad: 1, precio: 1 }] });
    expect(fieldOf(liquidationItems)).toContainEqual(expect.objectContaining({ field: "items", reason: "unknown" }));
  }, 60_000);
});

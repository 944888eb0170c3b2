// Guías de despacho (52) over HTTP against the sandbox SII: a sale's guía with its transport, a zero-amount internal
// transfer, the factura that follows a guía, its annulment, the 422s of its fields, and the sales summary.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { validateXsd } from "@timbre/xsd";
import { expectError } from "../../../test/support/fixtures.js";
import { createHarness, describeDrivers, type Harness } from "../../../test/support/harness.js";
import { emitter, RECEPTOR, serveOverHttp } from "../../../test/support/emission.js";
import { refreshDocumentStatus } from "../../dispatch/refresh-document-status.js";

const GUIA_VENTA = {
  tipo: 52,
  receptor: RECEPTOR,
  items: [
    { nombre: "Cemento 25 kg", cantidad: 40, precio: 3990, descuento_porcentaje: 5 },
    { nombre: "Arena (m3)", cantidad: 2, precio: 18000, unidad: "M3" },
  ],
  traslado: { tipo: 1, despacho: 2 },
  transporte: {
    patente: "KXTR21",
    rut_transportista: "76354771-K",
    chofer: { rut: "11111111-1", nombre: "Juan Soto" },
    direccion_destino: "Camino a Melipilla 9800",
    comuna_destino: "Maipú",
    ciudad_destino: "Santiago",
  },
};

describeDrivers("guías de despacho (52)", (driver) => {
  let h: Harness;
  let http: ReturnType<typeof serveOverHttp>;
  let key: string;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    http = serveOverHttp(h);
    key = (await emitter(h, { tipos: [33, 52, 61] })).key.key;
  }, 60_000);
  afterAll(async () => {
    await http?.close();
    await h?.close();
  });

  let guia: { id: string; folio: number; fecha: string; monto_total: number };

  test("a sale's guía with its transport: 201, XSD-valid with IndTraslado and Transporte, ACEPTADO, detail and PDFs", async () => {
    const res = await http.call("POST", "/v1/dte/emit", { key, body: GUIA_VENTA });
    expect(res.status).toBe(201);
    guia = res.json.data;
    // 40 × 3 990 = 159 600 − 5 % (7 980) = 151 620; + 36 000 = 187 620 net; IVA 35 648
    expect(res.json.data).toMatchObject({ tipo: 52, folio: 1, monto_neto: 187620, monto_iva: 35648, monto_total: 223268, estado: "ENVIADO" });
    expect((await refreshDocumentStatus(h.deps, guia.id))?.estado).toBe("ACEPTADO");

    const xml = new TextDecoder("latin1").decode((await http.call("GET", `/v1/dte/${guia.id}/xml`, { key })).bytes);
    expect(xml).toMatch(/<TipoDespacho>2<\/TipoDespacho><IndTraslado>1<\/IndTraslado>/);
    expect(xml).toMatch(/<\/Receptor><Transporte><Patente>KXTR21<\/Patente><RUTTrans>76354771-K<\/RUTTrans><Chofer><RUTChofer>11111111-1<\/RUTChofer><NombreChofer>Juan Soto<\/NombreChofer><\/Chofer>/);
    const envio = await http.call("GET", `/v1/dte/${guia.id}/xml?envio=true`, { key });
    expect((await validateXsd(envio.bytes, "EnvioDTE")).errors ?? []).toEqual([]);

    const detail = (await http.call("GET", `/v1/dte/${guia.id}`, { key })).json.data;
    expect(detail.traslado).toEqual(GUIA_VENTA.traslado);
    expect(detail.transporte).toEqual(GUIA_VENTA.transporte);
    for (const query of ["", "?formato=termica", "?cedible=true"]) {
      const pdf = await http.call("GET", `/v1/dte/${guia.id}/pdf${query}`, { key });
      expect(pdf.status).toBe(200);
      expect(pdf.text.startsWith("%PDF-")).toBe(true);
    }
  }, 30_000);

  test("an internal transfer (traslado 5) at zero prices: total 0, ACEPTADO", async () => {
    // goods moved between the issuer's own premises: the issuer is the receiver
    const issuerAsReceptor = { rut: "76192083-9", razon_social: "Empresa de Prueba SpA", giro: "Construcción", direccion: "Bodega Central 100", comuna: "Quilicura" };
    const body = { tipo: 52, receptor: issuerAsReceptor, items: [{ nombre: "Andamios a obra Los Dominicos", cantidad: 12, precio: 0 }], traslado: { tipo: 5 } };
    expectError(await http.call("POST", "/v1/dte/emit", { key, body: { ...body, receptor: RECEPTOR } }), 422, "VALIDATION_ERROR");
    const res = await http.call("POST", "/v1/dte/emit", { key, body });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ monto_total: 0, monto_iva: 0 });
    expect((await refreshDocumentStatus(h.deps, res.json.data.id))?.estado).toBe("ACEPTADO");
    const xml = new TextDecoder("latin1").decode((await http.call("GET", `/v1/dte/${res.json.data.id}/xml`, { key })).bytes);
    expect(xml).toContain("<IndTraslado>5</IndTraslado>");
    expect(xml).not.toContain("<Transporte>");
  }, 30_000);

  test("the factura that follows the guía references it (TpoDocRef 52); the guía is annulled by a 61 with CodRef 1", async () => {
    const factura = await http.call("POST", "/v1/dte/emit", {
      key,
      body: { tipo: 33, receptor: RECEPTOR, items: GUIA_VENTA.items, referencia: { tipo_doc: 52, folio: guia.folio, fecha: guia.fecha, razon: "Factura de guía" } },
    });
    expect(factura.status).toBe(201);
    expect(factura.json.data.monto_total).toBe(guia.monto_total);
    expect((await refreshDocumentStatus(h.deps, factura.json.data.id))?.estado).toBe("ACEPTADO");

    const nota = await http.call("POST", `/v1/dte/${guia.id}/anular`, { key });
    expect(nota.status).toBe(201);
    expect(nota.json.data).toMatchObject({ tipo: 61, monto_total: guia.monto_total });
    expect((await refreshDocumentStatus(h.deps, nota.json.data.id))?.estado).toBe("ACEPTADO");
    const xml = new TextDecoder("latin1").decode((await http.call("GET", `/v1/dte/${nota.json.data.id}/xml`, { key })).bytes);
    expect(xml).toMatch(new RegExp(`<TpoDocRef>52</TpoDocRef><FolioRef>${guia.folio}</FolioRef>`));
    expect(xml).not.toContain("<IndTraslado>");
  }, 30_000);

  test("422 at the field: a guía without traslado, an unknown traslado, traslado on a factura, a bad driver RUT", async () => {
    const { traslado: _t, ...noTraslado } = GUIA_VENTA;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [noTraslado, "traslado.tipo", "required"],
      [{ ...GUIA_VENTA, traslado: { tipo: 10 } }, "traslado.tipo", "maximum"],
      [{ ...GUIA_VENTA, traslado: { tipo: 9 } }, "traslado.tipo", "not_allowed"],
      [{ ...GUIA_VENTA, precios_brutos: true }, "precios_brutos", "not_allowed"],
      [{ ...GUIA_VENTA, tipo: 33 }, "traslado", "not_allowed"],
      [{ ...GUIA_VENTA, transporte: { chofer: { rut: "11111111-2", nombre: "X" } } }, "transporte.chofer.rut", "invalid_rut"],
    ];
    for (const [body, field, reason] of cases) {
      const res = await http.call("POST", "/v1/dte/emit", { key, body });
      expectError(res, 422, "VALIDATION_ERROR");
      expect(res.json.error.details.errors).toContainEqual(expect.objectContaining({ field, reason }));
    }
  }, 30_000);

  test("the sales summary lists guías by tipo but leaves them out of the débito fiscal", async () => {
    const res = await http.call("GET", `/v1/dte/resumen?desde=${guia.fecha}&hasta=${guia.fecha}`, { key });
    expect(res.status).toBe(200);
    const byTipo = new Map(res.json.data.tipos.map((t: { tipo: number; monto_iva: number }) => [t.tipo, t.monto_iva]));
    expect(byTipo.get(52)).toBe(35648);
    // the factura's IVA less the note annulling the guía (a 61 is subtracted whatever it modifies)
    expect(res.json.data.debito_fiscal).toBe((byTipo.get(33) as number) - (byTipo.get(61) as number));
  }, 30_000);
});

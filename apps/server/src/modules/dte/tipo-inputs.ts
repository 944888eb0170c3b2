/**
 * The tipos with their own shape (46, 43, 110–112; `tipo-bodies.ts`): request → core input, core's checks with the
 * API's paths, and the amounts a document row keeps in its columns. Every other tipo goes the classic way
 * (`toDocumentInput`, `validateDocument`, `computeTotals`).
 *
 * Decisions: an export's row keeps its pesos (`OtraMoneda`) in `monto_exento`/`monto_total`, so `GET /dte/resumen`
 * sums exports in pesos (API.md §13) and an annulment compares pesos; its currency, exchange rate and total in that
 * currency have their own columns (`currencyColumnsOf`), which lists show and the SII's status query compares.
 */
import type { DocumentInput, ExportDocumentInput, Issuer, LiquidationDocumentInput, PurchaseDocumentInput } from "@timbre/core";
import { FOREIGN_BUYER_RUT, computeExportDocumentTotals, isLiquidationInput, isPurchaseDocument } from "@timbre/core/document";
import type { ValidationIssue } from "@timbre/core/errors";
import { computeLiquidationTotals, computePurchaseTotals, computeTotals, type Totals } from "@timbre/core/totals";
import { validateDocument, validateExportDocument, validateLiquidationDocument, validatePurchaseDocument, type AnyDocumentInput } from "@timbre/core/xml";
import { EXPORT_TIPOS, LIQUIDATION_TIPOS, PURCHASE_TIPOS, type ExportRequest, type LiquidationRequest, type PurchaseRequest } from "./tipo-bodies.js";
import type { EmitRequest, ReferenciaRequest } from "./schemas.js";
import { referencesOf, toDocumentInput, toReference } from "./to-document-input.js";

type Family = "purchase" | "liquidation" | "export" | "classic";

/**
 * How a document is built, by its tipo — and for a 56/61 by what it modifies: a note on a 46 is built the 46's way
 * (`isPurchaseDocument`). `referencias` are core's (`tipoDoc`).
 */
export function familyOf(tipo: number, referencias: ReadonlyArray<{ tipoDoc: number | string }> = []): Family {
  if ((PURCHASE_TIPOS as readonly number[]).includes(tipo) || isPurchaseDocument({ tipo, referencias })) return "purchase";
  if ((LIQUIDATION_TIPOS as readonly number[]).includes(tipo)) return "liquidation";
  if ((EXPORT_TIPOS as readonly number[]).includes(tipo)) return "export";
  return "classic";
}

export const isExportRequestTipo = (tipo: number): boolean => familyOf(tipo) === "export";

/** A 56/61 that references a 43 and repeats its `liquidacion` (`LiquidationBody`). */
const isLiquidationNoteRequest = (request: { tipo: number; liquidacion?: unknown }, refs: ReferenciaRequest[]): boolean =>
  (request.tipo === 56 || request.tipo === 61) && request.liquidacion !== undefined && refs.some((r) => Number(r.tipo_doc) === 43);

/** The family of an API request (its `referencia` and `referencias`; a note on a 43 with `liquidacion` is one). */
export function familyOfRequest(request: { tipo: number; referencia?: ReferenciaRequest; referencias?: ReferenciaRequest[]; liquidacion?: unknown }): Family {
  const refs = referencesOf(request);
  if (isLiquidationNoteRequest(request, refs)) return "liquidation";
  return familyOf(request.tipo, refs.map((r) => ({ tipoDoc: r.tipo_doc })));
}

/** The family of a core input (settled documents make a liquidation, whatever its tipo). */
export const familyOfInput = (input: AnyDocumentInput): Family =>
  isLiquidationInput(input) ? "liquidation" : familyOf(input.tipo, "referencias" in input ? (input.referencias ?? []) : []);

/** Any emission request (its `fecha` resolved) → core's input for its tipo, with `folio`. */
export function toTipoInput(request: { tipo: number; fecha: string }, issuer: Issuer, folio: number): AnyDocumentInput {
  switch (familyOfRequest(request)) {
    case "purchase":
      return toPurchaseInput(request as PurchaseRequest & { fecha: string }, issuer, folio);
    case "liquidation":
      return toLiquidationInput(request as LiquidationRequest & { fecha: string }, issuer, folio);
    case "export":
      return toExportInput(request as ExportRequest & { fecha: string }, issuer, folio);
    default:
      return toDocumentInput(request as EmitRequest & { fecha: string }, issuer, folio);
  }
}

function toPurchaseInput(request: PurchaseRequest & { fecha: string }, issuer: Issuer, folio: number): PurchaseDocumentInput {
  const base = toDocumentInput(request as unknown as EmitRequest & { fecha: string }, issuer, folio);
  const items = (Array.isArray(request.items) ? request.items : []).map((item, i) => {
    const line = { ...base.items[i] } as PurchaseDocumentInput["items"][number];
    if (item.retencion !== undefined) line.retencion = item.retencion;
    return line;
  });
  // `preciosBrutos` travels on so core names it `not_allowed`.
  return { ...base, tipo: request.tipo, items } as PurchaseDocumentInput;
}

function toLiquidationInput(request: LiquidationRequest & { fecha: string }, issuer: Issuer, folio: number): LiquidationDocumentInput {
  const base = toDocumentInput({ ...(request as unknown as EmitRequest), items: [], fecha: request.fecha }, issuer, folio);
  const liq = request.liquidacion ?? { documentos: [] };
  const input: LiquidationDocumentInput = {
    tipo: request.tipo,
    folio,
    fecha: request.fecha,
    issuer,
    receiver: base.receiver,
    documentos: (Array.isArray(liq.documentos) ? liq.documentos : []).map((d) => ({
      tipoDocLiq: d.tipo_doc_liq,
      nombre: d.nombre,
      monto: d.monto,
      ...(d.cantidad === undefined ? {} : { cantidad: d.cantidad }),
      ...(d.exento === undefined ? {} : { exento: d.exento }),
      ...(d.descripcion === undefined ? {} : { descripcion: d.descripcion }),
      ...(d.unidad === undefined ? {} : { unidad: d.unidad }),
    })),
  };
  if (Array.isArray(liq.comisiones) && liq.comisiones.length > 0) {
    input.comisiones = liq.comisiones.map((c) => ({
      tipo: c.tipo,
      descripcion: c.descripcion,
      montoNeto: c.monto_neto,
      ...(c.tasa_comision === undefined ? {} : { tasa: c.tasa_comision }),
      ...(c.monto_exento === undefined ? {} : { montoExento: c.monto_exento }),
    }));
  }
  if (request.forma_pago !== undefined) input.formaPago = request.forma_pago;
  if (base.referencias) input.referencias = base.referencias;
  return input;
}

const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function toExportInput(request: ExportRequest & { fecha: string }, issuer: Issuer, folio: number): ExportDocumentInput {
  const r = request.receptor ?? ({} as ExportRequest["receptor"]);
  const a = request.exportacion;
  const input: ExportDocumentInput = {
    tipo: request.tipo,
    folio,
    fecha: request.fecha,
    issuer,
    // `rut` is not core's (it writes 55555555-5 itself): the document row keeps it as the receptor's RUT.
    receiver: defined({ rut: FOREIGN_BUYER_RUT, razonSocial: r.razon_social, nacionalidad: r.extranjero?.nacionalidad, numId: r.extranjero?.num_id, giro: r.giro, direccion: r.direccion, ciudad: r.ciudad, email: r.email }),
    items: (Array.isArray(request.items) ? request.items : []).map((item) =>
      defined({ nombre: item.nombre, cantidad: item.cantidad, precio: item.precio, unidad: item.unidad, descripcion: item.descripcion, codigo: item.codigo, descuentoPorcentaje: item.descuento_porcentaje, recargoPorcentaje: item.recargo_porcentaje }),
    ),
    moneda: request.moneda,
    tipoCambio: request.tipo_cambio,
  };
  if (request.forma_pago_exportacion !== undefined) input.formaPagoExportacion = request.forma_pago_exportacion;
  if (request.fecha_cancelacion !== undefined) input.fechaCancelacion = request.fecha_cancelacion;
  if (a?.indicador_servicio !== undefined) input.indicadorServicio = a.indicador_servicio;
  if (a !== undefined) {
    input.exportacion = defined({
      modalidadVenta: a.modalidad_venta, clausulaVenta: a.clausula_venta, totalClausula: a.total_clausula, viaTransporte: a.via_transporte,
      nombreTransporte: a.nombre_transporte, puertoEmbarque: a.puerto_embarque, puertoDesembarque: a.puerto_desembarque,
      tara: a.tara, unidadTara: a.unidad_tara, pesoBruto: a.peso_bruto, unidadPesoBruto: a.unidad_peso_bruto, pesoNeto: a.peso_neto,
      unidadPesoNeto: a.unidad_peso_neto, totalItems: a.total_items, flete: a.flete, seguro: a.seguro, paisReceptor: a.pais_receptor, paisDestino: a.pais_destino,
      bultos: a.bultos?.map((b) => defined({ tipo: b.tipo, cantidad: b.cantidad, marcas: b.marcas, idContainer: b.id_container, sello: b.sello, emisorSello: b.emisor_sello })),
    });
  }
  const refs = referencesOf(request);
  if (refs.length > 0) input.referencias = refs.map(toReference);
  return input;
}

/** Core's issues for the input of any tipo, on core's paths. */
export function tipoIssues(input: AnyDocumentInput): ValidationIssue[] {
  switch (familyOfInput(input)) {
    case "purchase":
      return validatePurchaseDocument(input as PurchaseDocumentInput);
    case "liquidation":
      return validateLiquidationDocument(input as LiquidationDocumentInput);
    case "export":
      return validateExportDocument(input as ExportDocumentInput).map((i) => (i.path === "indicador_servicio" ? { ...i, path: "exportacion.indicador_servicio" } : i));
    default:
      return validateDocument(input as DocumentInput);
  }
}

/**
 * The amounts of a document in the shape of a classic `Totals` (what its row's columns and the classic code read).
 * A 46: its total net of the retained IVA; a 43: its signed amounts; an export: its pesos.
 */
export function columnTotalsOf(input: AnyDocumentInput): Totals {
  const none: Pick<Totals, "impuestosAdicionales" | "descuentoGlobal" | "preciosBrutos" | "lines"> = { impuestosAdicionales: [], descuentoGlobal: null, preciosBrutos: false, lines: [] };
  switch (familyOfInput(input)) {
    case "purchase": {
      const t = computePurchaseTotals(input as PurchaseDocumentInput);
      return { ...none, montoNeto: t.montoNeto, montoExento: t.montoExento, tasaIva: t.tasaIva, montoIva: t.montoIva, montoTotal: t.montoTotal, lines: t.lines };
    }
    case "liquidation": {
      const t = computeLiquidationTotals(input as LiquidationDocumentInput);
      return { ...none, montoNeto: t.montoNeto, montoExento: t.montoExento, tasaIva: t.tasaIva, montoIva: t.montoIva, montoTotal: t.montoTotal };
    }
    case "export": {
      const t = computeExportDocumentTotals(input as ExportDocumentInput);
      return { ...none, montoNeto: 0, montoExento: t.montoExentoPesos, tasaIva: 0, montoIva: 0, montoTotal: t.montoTotalPesos };
    }
    default:
      return computeTotals(input as DocumentInput);
  }
}

/** What the API adds to a document of these tipos (API.md §13), from its stored input. */
export function tipoExtras(input: AnyDocumentInput): Record<string, unknown> {
  switch (familyOfInput(input)) {
    case "purchase": {
      const t = computePurchaseTotals(input as PurchaseDocumentInput);
      return { monto_iva_retenido: t.montoIvaRetenido, monto_iva_no_retenido: t.montoIvaNoRetenido, retenciones: t.retenciones.map((r) => ({ ...r, tasa: Number(r.tasa) })) };
    }
    case "liquidation": {
      const t = computeLiquidationTotals(input as LiquidationDocumentInput);
      return { comisiones: { monto_neto: t.totalComisiones.montoNeto, monto_exento: t.totalComisiones.montoExento, monto_iva: t.totalComisiones.montoIva } };
    }
    case "export": {
      const e = input as ExportDocumentInput;
      const t = computeExportDocumentTotals(e);
      // Amounts in the currency as JSON numbers (4 decimals at most: exact in a double's 15 digits up to 10^11).
      return { moneda: e.moneda, tipo_cambio: Number(t.tipoCambio), monto_exento: Number(t.montoExento), monto_total: Number(t.montoTotal), monto_total_pesos: t.montoTotalPesos };
    }
    default:
      return {};
  }
}


/** The currency columns of a document row: an export's `TpoMoneda`, `TpoCambio` and `MntTotal`; nulls otherwise. */
export function currencyColumnsOf(input: AnyDocumentInput): { moneda: string | null; tipoCambio: string | null; montoTotalMoneda: string | null } {
  if (familyOfInput(input) !== "export") return { moneda: null, tipoCambio: null, montoTotalMoneda: null };
  const e = input as ExportDocumentInput;
  const t = computeExportDocumentTotals(e);
  return { moneda: e.moneda, tipoCambio: t.tipoCambio, montoTotalMoneda: t.montoTotal };
}

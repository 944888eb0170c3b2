/** Totals as the API shows them (preview, batch check). */
import type { Totals } from "@timbre/core/totals";

export function presentTotals(totals: Totals) {
  return {
    monto_neto: totals.montoNeto,
    monto_exento: totals.montoExento,
    tasa_iva: totals.tasaIva,
    monto_iva: totals.montoIva,
    monto_total: totals.montoTotal,
    precios_brutos: totals.preciosBrutos,
    // The percentage as the JSON number it was sent as (core keeps it as decimal text).
    descuento_global: totals.descuentoGlobal && { ...totals.descuentoGlobal, porcentaje: Number(totals.descuentoGlobal.porcentaje) },
    // Extension: the additional taxes (ILA…) by code, part of monto_total. Documents stored before they existed: [].
    impuestos_adicionales: presentAdditionalTaxes(totals),
    items: totals.lines.map((l) => ({ monto_bruto: l.montoBruto, descuento_monto: l.descuentoMonto, monto: l.montoItem, exento: l.exento })),
  };
}

export function presentAdditionalTaxes(totals: Totals) {
  return (totals.impuestosAdicionales ?? []).map((t) => ({ codigo: t.codigo, tasa: Number(t.tasa), base: t.base, monto: t.monto }));
}

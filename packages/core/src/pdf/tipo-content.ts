/**
 * What 46, 43 and 110–112 print beyond a classic document (BRIEF-doctypes §1–§3, "PDF"): computed from the stored
 * input as the XML was (pure, so a print never disagrees with the document).
 * - 46: each retention with its name and rate, the IVA not retained, the total net of the retention.
 * - 43: the settled documents as lines (type, count, signed amount), each commission with its IVA, the total owed.
 * - 110–112: amounts in the document's currency with its decimals and its name, the exchange rate and the pesos
 *   total; the customs codes in words (clause, modality, transport, ports, countries, packages, payment form).
 */
import { isExportTipo, computeExportDocumentTotals, type ExportDocumentInput } from "../document/export-document.js";
import { isLiquidationInput, type LiquidationDocumentInput } from "../document/liquidation-document.js";
import { isPurchaseDocument, type PurchaseDocumentInput } from "../document/purchase-document.js";
import type { DocumentInput } from "../document/types.js";
import {
  codeName, COUNTRIES, CUSTOMS_UNITS, EXPORT_PAYMENT_FORMS, EXPORT_SERVICE_KINDS, PACKAGE_KINDS, PORTS, SALE_CLAUSES, SALE_MODALITIES,
  TRANSPORT_WAYS, retentionLabel,
} from "../tables/index.js";
import { computeLiquidationTotals } from "../totals/liquidation-totals.js";
import { computePurchaseTotals } from "../totals/purchase-totals.js";
import type { ItemRow } from "./content.js";
import { formatMoney, formatNumber } from "./format.js";
import { itemText } from "./item-text.js";
import { referenceTypeName } from "./words.js";

type Field = [label: string, value: string];
type TotalRow = [label: string, value: string, grand: boolean];

/** The tipos this file prints. */

/** Currencies without minor units print no decimals; the others at least 2 (more when the amount has them, ≤ 4). */
const WHOLE_CURRENCIES = new Set(["YEN", "GUARANI", "PESO CL", "PESO COL", "PESO", "BOLIVAR"]);

/**
 * An amount in an export's currency: `FRANCO SZ 112.517,50`.
 *
 * @example
 * formatCurrency("112517.5", "DOLAR USA") // "DOLAR USA 112.517,50"
 */
export function formatCurrency(amount: string, moneda: string): string {
  const [whole = "0", decimals = ""] = amount.split(".");
  const min = WHOLE_CURRENCIES.has(moneda) ? 0 : 2;
  const digits = decimals.replace(/0+$/, "").padEnd(min, "0");
  const text = formatNumber(whole) + (digits ? `,${digits}` : "");
  return `${moneda} ${text}`;
}

/** The item rows of a 43 (its settled documents) or an export (in its currency); null for other tipos. */
export function tipoItemRows(input: DocumentInput): ItemRow[] | null {
  const any = input as unknown as LiquidationDocumentInput | ExportDocumentInput | PurchaseDocumentInput;
  if (isLiquidationInput(any)) {
    return any.documentos.map((d) => ({
      cantidad: d.cantidad === undefined ? "" : formatNumber(d.cantidad),
      unidad: d.unidad ?? "",
      nombre: `${referenceTypeName(d.tipoDocLiq)} - ${d.nombre}${d.exento ? " (exento)" : ""}`,
      descripcion: d.descripcion ?? "",
      precio: "",
      descuentoPorcentaje: "",
      descuentoMonto: "",
      total: formatNumber(d.monto),
    }));
  }
  if (isExportTipo(any.tipo)) {
    const e = any as ExportDocumentInput;
    const totals = computeExportDocumentTotals(e);
    return e.items.map((item, i) => {
      const line = totals.lines[i];
      const pct = item.descuentoPorcentaje ?? item.recargoPorcentaje;
      return {
        ...itemText(item),
        descuentoPorcentaje: pct !== undefined && Number(pct) !== 0 ? `${item.descuentoPorcentaje !== undefined ? "-" : "+"}${formatNumber(pct)} %` : "",
        descuentoMonto: "",
        total: formatCurrency(line?.montoItem ?? "0", e.moneda).replace(`${e.moneda} `, ""),
      };
    });
  }
  return null;
}

/** The totals box of these tipos; null for other tipos. */
export function tipoTotalRows(input: DocumentInput): TotalRow[] | null {
  const any = input as unknown as LiquidationDocumentInput | ExportDocumentInput | PurchaseDocumentInput;
  if (isPurchaseDocument(any)) {
    const t = computePurchaseTotals(any as PurchaseDocumentInput);
    const rows: TotalRow[] = [["Monto neto", formatMoney(t.montoNeto), false]];
    if (t.montoExento !== 0) rows.push(["Monto exento", formatMoney(t.montoExento), false]);
    rows.push([`IVA ${t.tasaIva} %`, formatMoney(t.montoIva), false]);
    for (const r of t.retenciones) rows.push([retentionLabel(r.codigo), formatMoney(-r.monto), false]);
    if (t.montoIvaNoRetenido !== 0) rows.push(["IVA no retenido", formatMoney(t.montoIvaNoRetenido), false]);
    rows.push(["TOTAL", formatMoney(t.montoTotal), true]);
    return rows;
  }
  if (isLiquidationInput(any)) {
    const t = computeLiquidationTotals(any as LiquidationDocumentInput);
    const c = t.totalComisiones;
    return [
      ["Monto neto", formatMoney(t.montoNeto), false],
      ["Monto exento", formatMoney(t.montoExento), false],
      [`IVA ${t.tasaIva} %`, formatMoney(t.montoIva), false],
      ["Comisiones neto", formatMoney(-c.montoNeto), false],
      ["Comisiones exento", formatMoney(-c.montoExento), false],
      ["IVA comisiones", formatMoney(-c.montoIva), false],
      ["TOTAL", formatMoney(t.montoTotal), true],
    ];
  }
  if (isExportTipo(any.tipo)) {
    const e = any as ExportDocumentInput;
    const t = computeExportDocumentTotals(e);
    const rows: TotalRow[] = t.ajustes.map((a, i) => [adjustmentName(e, i), formatCurrency(a.monto, e.moneda), false]);
    rows.push(["Monto exento", formatCurrency(t.montoExento, e.moneda), false]);
    rows.push([`Tipo de cambio`, `${formatNumber(t.tipoCambio)} $ por unidad`, false]);
    rows.push(["Total en pesos", formatMoney(t.montoTotalPesos), false]);
    rows.push(["TOTAL", formatCurrency(t.montoTotal, e.moneda), true]);
    return rows;
  }
  return null;
}

/** A global charge's words: freight and insurance first (`exportAdjustments`), then the caller's own. */
function adjustmentName(e: ExportDocumentInput, index: number): string {
  const named = [e.exportacion?.flete !== undefined ? "Flete" : null, e.exportacion?.seguro !== undefined ? "Seguro" : null].filter((n): n is string => n !== null);
  const own = e.ajustes?.[index - named.length];
  return named[index] ?? (own ? `${own.tipo === "D" ? "Descuento" : "Recargo"} ${own.glosa ?? ""}`.trim() : "Ajuste");
}

/** The block under the receiver: an export's currency and customs data in words, a 43's commissions. */
export function tipoFields(input: DocumentInput): { left: Field[]; right: Field[] } | null {
  const any = input as unknown as LiquidationDocumentInput | ExportDocumentInput;
  if (isLiquidationInput(any)) {
    const t = computeLiquidationTotals(any);
    const left: Field[] = (any.comisiones ?? []).map((c, i) => {
      const line = t.comisiones[i];
      const rate = c.tasa === undefined ? "" : ` ${formatNumber(c.tasa)} %`;
      return [c.tipo === "C" ? "Comisión" : "Otros cargos", `${c.descripcion}${rate}: neto ${formatMoney(line?.montoNeto ?? c.montoNeto)}, exento ${formatMoney(line?.montoExento ?? 0)}, IVA ${formatMoney(line?.montoIva ?? 0)}`];
    });
    return { left, right: [] };
  }
  if (!isExportTipo(any.tipo)) return null;
  const e = any as ExportDocumentInput;
  const a = e.exportacion ?? {};
  const word = (table: Parameters<typeof codeName>[0], code: number | undefined) => (code === undefined ? "" : codeName(table, code));
  const weight = (value: number | string | undefined, unit: number | undefined) => (value === undefined ? "" : `${formatNumber(value)} ${word(CUSTOMS_UNITS, unit)}`.trim());
  const left: Field[] = [
    ["Nacionalidad", word(COUNTRIES, e.receiver.nacionalidad)],
    ["País receptor", word(COUNTRIES, a.paisReceptor)],
    ["País destino", word(COUNTRIES, a.paisDestino)],
    ["Puerto embarque", word(PORTS, a.puertoEmbarque)],
    ["Puerto desembarque", word(PORTS, a.puertoDesembarque)],
    ["Vía de transporte", word(TRANSPORT_WAYS, a.viaTransporte)],
    ["Transporte", a.nombreTransporte ?? ""],
    ["Bultos", (a.bultos ?? []).map((b) => `${b.cantidad} ${codeName(PACKAGE_KINDS, b.tipo)} (${b.marcas}${b.idContainer ? `, ${b.idContainer}` : ""})`).join("; ")],
  ];
  const right: Field[] = [
    ["Moneda", e.moneda],
    ["Forma de pago", word(EXPORT_PAYMENT_FORMS, e.formaPagoExportacion)],
    ["Modalidad de venta", word(SALE_MODALITIES, a.modalidadVenta)],
    ["Cláusula de venta", a.clausulaVenta === undefined ? "" : `${codeName(SALE_CLAUSES, a.clausulaVenta)}${a.totalClausula === undefined ? "" : ` ${formatCurrency(String(a.totalClausula), e.moneda)}`}`],
    ["Servicio", word(EXPORT_SERVICE_KINDS, e.indicadorServicio)],
    ["Tara", weight(a.tara, a.unidadTara)],
    ["Peso bruto", weight(a.pesoBruto, a.unidadPesoBruto)],
    ["Peso neto", weight(a.pesoNeto, a.unidadPesoNeto)],
  ];
  const present = (f: Field): boolean => f[1].trim() !== "";
  return { left: left.filter(present), right: right.filter(present) };
}

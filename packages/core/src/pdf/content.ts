/** What is printed, as text, independent of the paper format (carta and térmica lay the same content out). */
import { additionalTaxLabel } from "../document/additional-taxes.js";
import { dispatchKindLabel, transferKindLabel } from "../document/dispatch-guide.js";
import { defaultPaymentTerm, isDispatchGuide, isExemptTipo } from "../document/types.js";
import type { DocumentInput, Resolution } from "../document/types.js";
import { formatRut } from "../rut/index.js";
import type { Totals } from "../totals/index.js";
import { formatDateShort, formatDateWords, formatMoney, formatNumber } from "./format.js";
import { itemText } from "./item-text.js";
import { tipoFields, tipoItemRows, tipoTotalRows } from "./tipo-content.js";
import { documentName, paymentTermName, referenceCodeName, referenceTypeName } from "./words.js";

/** Ley 19.983 sentence of the acuse de recibo (cedible copy). */
export const ACUSE_TEXT =
  "El acuse de recibo que se declara en este acto, de acuerdo a lo dispuesto en la letra b) del Art. 4°, y la " +
  "letra c) del Art. 5° de la Ley 19.983, acredita que la entrega de mercaderías o servicio(s) prestado(s) ha(n) " +
  "sido recibido(s).";
export const ACUSE_FIELDS = ["Nombre", "R.U.T.", "Fecha", "Recinto", "Firma"] as const;
export const PREVIEW_MARK = "SIN VALIDEZ TRIBUTARIA";

/**
 * The legend of the transferable copy.
 *
 * @example
 * cedibleLegend(33) // "CEDIBLE"; cedibleLegend(52) // "CEDIBLE CON SU FACTURA"
 */
export const cedibleLegend = (tipo: number): string => (tipo === 52 ? "CEDIBLE CON SU FACTURA" : "CEDIBLE");

/**
 * `76.192.083-9`, or the text as given when it is not a valid RUT (printing never fails on data).
 *
 * @example
 * printRut("76192083-9") // "76.192.083-9"; printRut("sin rut") // "sin rut"
 */
export function printRut(rut: string): string {
  try {
    return formatRut(rut);
  } catch {
    return rut;
  }
}

/**
 * @example
 * boxLines(input, false) // { rut: "R.U.T.: 76.192.083-9", name: "FACTURA ELECTRÓNICA", folio: "N° 87" }
 */
export const boxLines = (input: DocumentInput, preview: boolean): { rut: string; name: string; folio: string } => ({
  rut: `R.U.T.: ${printRut(input.issuer.rut)}`,
  name: documentName(input.tipo),
  folio: preview ? "N° —" : `N° ${input.folio}`,
});

/**
 * @example
 * siiUnit(input) // "S.I.I. - SANTIAGO ORIENTE"
 */
export const siiUnit = (input: DocumentInput): string =>
  `S.I.I. - ${(input.issuer.unidadSii ?? input.issuer.comuna).toUpperCase()}`;

/**
 * Issuer lines under the razón social.
 *
 * @example
 * issuerLines(input) // ["Desarrollo de software…", "Av. Providencia 1234, Providencia, Santiago", "Tel.: …"]
 */
export function issuerLines(input: DocumentInput): string[] {
  const { issuer } = input;
  const place = [issuer.comuna, issuer.ciudad].filter((v) => v && v.trim() !== "").join(", ");
  const contact = [issuer.telefono ? `Tel.: ${issuer.telefono}` : "", issuer.email ?? ""].filter((v) => v).join("  ·  ");
  return [issuer.giro, [issuer.direccion, place].filter((v) => v).join(", "), contact].filter((v) => v.trim() !== "");
}

export type Field = [label: string, value: string];

/**
 * Receiver fields (left column) and document fields (right column: date, payment, on a guía the traslado and the
 * despacho in words), empty ones left out.
 *
 * @example
 * receiverFields(input).left[0] // ["Señor(es)", "Comercializadora Ñuñoa Limitada"]
 */
export function receiverFields(input: DocumentInput): { left: Field[]; right: Field[] } {
  const r = input.receiver;
  const left: Field[] = [
    ["Señor(es)", r.razonSocial],
    ["R.U.T.", printRut(r.rut)],
    ["Giro", r.giro ?? ""],
    ["Dirección", r.direccion ?? ""],
    ["Comuna", r.comuna ?? ""],
    ["Ciudad", r.ciudad ?? ""],
  ];
  const traslado = isDispatchGuide(input.tipo) ? input.traslado : undefined;
  const right: Field[] = [
    ["Fecha emisión", formatDateWords(input.fecha)],
    ["Forma de pago", paymentTermName(input.formaPago ?? defaultPaymentTerm(input.tipo))],
    ["Tipo de traslado", traslado ? transferKindLabel(traslado.indicador) : ""],
    ["Tipo de despacho", traslado?.despacho != null ? dispatchKindLabel(traslado.despacho) : ""],
    ["Contacto", r.contacto ?? ""],
    ["Email", r.email ?? ""],
  ];
  const present = (f: Field): boolean => f[1].trim() !== "";
  return { left: left.filter(present), right: right.filter(present) };
}

/**
 * The transport of a guía de despacho, empty ones left out (an export's customs data and a 43's commissions instead:
 * `tipo-content.ts`): the vehicle and carrier (`right`), the destination and the
 * driver (`left`). Both empty when there is no transport (or the document is not a guía).
 *
 * @example
 * transportFields(input) // { left: [["Destino", "Camino a Melipilla 12345, Maipú, Santiago"], ["Chofer", "Juan Soto, R.U.T. 12.345.678-5"]],
 * //   right: [["Patente", "BBCL45"], ["Transportista", "R.U.T. 77.777.777-7"]] }
 */
export function transportFields(input: DocumentInput): { left: Field[]; right: Field[] } {
  const own = tipoFields(input);
  if (own) return own;
  const t = isDispatchGuide(input.tipo) ? input.transporte : undefined;
  if (!t) return { left: [], right: [] };
  const destino = [t.direccionDestino, t.comunaDestino, t.ciudadDestino].filter((v) => v && v.trim() !== "").join(", ");
  const left: Field[] = [
    ["Destino", destino],
    ["Chofer", [t.chofer?.nombre ?? "", t.chofer?.rut ? `R.U.T. ${printRut(t.chofer.rut)}` : ""].filter((v) => v.trim() !== "").join(", ")],
  ];
  const right: Field[] = [
    ["Patente", t.patente ?? ""],
    ["Transportista", t.rutTransportista ? `R.U.T. ${printRut(t.rutTransportista)}` : ""],
  ];
  const present = (f: Field): boolean => f[1].trim() !== "";
  return { left: left.filter(present), right: right.filter(present) };
}

export interface ItemRow {
  cantidad: string;
  unidad: string;
  nombre: string;
  descripcion: string;
  precio: string;
  /** `10 %`, or empty when the line has no (non-zero) percentage discount. */
  descuentoPorcentaje: string;
  /** The discount in pesos (`2.598`), printed whenever there is one (formato DTE: `DescuentoMonto` is mandatory). */
  descuentoMonto: string;
  total: string;
}

/**
 * @example
 * itemRows(input, totals)[0] // { cantidad: "2", precio: "4.990", descuentoPorcentaje: "10 %", descuentoMonto: "998", total: "8.982", … }
 */
export function itemRows(input: DocumentInput, totals: Totals): ItemRow[] {
  const own = tipoItemRows(input);
  if (own) return own;
  return input.items.map((item, i) => {
    const line = totals.lines[i];
    const monto = line?.descuentoMonto ?? 0;
    // as in the XML: a percentage whose amount rounds to 0 pesos is left out with it
    const pct = monto > 0 ? (item.descuentoPorcentaje ?? 0) : 0;
    return {
      ...itemText(item),
      descuentoPorcentaje: Number(pct) !== 0 ? `${formatNumber(pct)} %` : "",
      descuentoMonto: monto > 0 ? formatNumber(monto) : "",
      total: formatNumber(line?.montoItem ?? 0),
    };
  });
}

export interface ReferenceRow {
  tipo: string;
  folio: string;
  fecha: string;
  razon: string;
}

/**
 * @example
 * referenceRows(input)[0] // { tipo: "Orden de compra", folio: "OC-4521", fecha: "15-11-2026", razon: "…" }
 */
export function referenceRows(input: DocumentInput): ReferenceRow[] {
  return (input.referencias ?? []).map((ref) => ({
    tipo: referenceTypeName(ref.tipoDoc),
    folio: String(ref.folio),
    fecha: formatDateShort(ref.fecha),
    razon: [referenceCodeName(ref.codigo), ref.razon ?? ""].filter((v) => v.trim() !== "").join(": "),
  }));
}

/**
 * Totals as printed: `[label, amount, isGrandTotal]`. Exempt-only tipos show only Exento and Total; a guía de despacho
 * leaves out a zero net amount with its IVA, and a zero exempt amount, as its `Totales` does.
 *
 * @example
 * totalRows(input, totals) // [["Monto neto", "$ 160.046", false], ["IVA 19 %", …], ["TOTAL", "$ 190.455", true]]
 */
export function totalRows(input: DocumentInput, totals: Totals): Array<[string, string, boolean]> {
  const own = tipoTotalRows(input);
  if (own) return own;
  const rows: Array<[string, string, boolean]> = [];
  if (totals.descuentoGlobal) {
    rows.push([`Descuento global ${formatNumber(totals.descuentoGlobal.porcentaje)} %`,
      formatMoney(-totals.descuentoGlobal.monto), false]);
  }
  if (isExemptTipo(input.tipo)) {
    rows.push(["Monto exento", formatMoney(totals.montoExento), false]);
  } else if (isDispatchGuide(input.tipo)) {
    // as in its Totales: a guía shows the amounts it has (one without prices only its total of 0)
    if (totals.montoNeto > 0) rows.push(["Monto neto", formatMoney(totals.montoNeto), false]);
    if (totals.montoExento > 0) rows.push(["Monto exento", formatMoney(totals.montoExento), false]);
    if (totals.montoNeto > 0) rows.push([`IVA ${totals.tasaIva} %`, formatMoney(totals.montoIva), false]);
  } else {
    rows.push(["Monto neto", formatMoney(totals.montoNeto), false]);
    if (totals.montoExento !== 0) rows.push(["Monto exento", formatMoney(totals.montoExento), false]);
    rows.push([`IVA ${totals.tasaIva} %`, formatMoney(totals.montoIva), false]);
    for (const t of totals.impuestosAdicionales ?? []) {
      rows.push([additionalTaxLabel(t.codigo), formatMoney(t.monto), false]);
    }
  }
  rows.push(["TOTAL", formatMoney(totals.montoTotal), true]);
  return rows;
}

/**
 * The three lines under the timbre; the resolution line is left out when unknown.
 *
 * @example
 * timbreLegends({ numero: 80, fecha: "2014-08-22" }) // ["Timbre Electrónico SII", "Res. 80 de 2014", "Verifique documento: www.sii.cl"]
 */
export function timbreLegends(resolution: Resolution | null): string[] {
  const res = resolution ? [`Res. ${resolution.numero} de ${resolution.fecha.slice(0, 4)}`] : [];
  return ["Timbre Electrónico SII", ...res, "Verifique documento: www.sii.cl"];
}

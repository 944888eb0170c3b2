/**
 * Additional taxes a line may carry (`Detalle/CodImpAdic`, totalled in `Totales/ImptoReten`): the ad valorem ones a
 * seller charges on facturas and their notes (formato DTE v2.2, §4 "Codificación tipos de impuestos y recargos").
 * Each is `rate × the sum of the lines with its code` and adds to `MntTotal`.
 *
 * Left out on purpose: retentions (15, 30–41…: facturas de compra, not issued here), IVA margen de comercialización
 * (14) and faenamiento (17), which take another base, and the specific taxes on fuel (28, 35), which are per m³.
 */
export interface AdditionalTax {
  /** `TipoImp` / `CodImpAdic`. */
  codigo: number;
  /** Rate in percent, as a decimal string (`TasaImp`). */
  tasa: string;
  nombre: string;
  /** The label printed beside the amount, with the rate after it ("ILA analcohólicas 10 %"). */
  etiqueta: string;
}

export const ADDITIONAL_TAXES: readonly AdditionalTax[] = [
  { codigo: 18, tasa: "5", nombre: "IVA anticipado carne", etiqueta: "IVA antic. carne" },
  { codigo: 19, tasa: "12", nombre: "IVA anticipado harina", etiqueta: "IVA antic. harina" },
  { codigo: 23, tasa: "15", nombre: "Impuesto adicional art. 37 a, b, c", etiqueta: "Imp. adic. art. 37" },
  { codigo: 24, tasa: "31.5", nombre: "Licores, piscos, whisky", etiqueta: "ILA licores" },
  { codigo: 25, tasa: "20.5", nombre: "Vinos", etiqueta: "ILA vinos" },
  { codigo: 26, tasa: "20.5", nombre: "Cervezas y bebidas alcohólicas", etiqueta: "ILA cervezas" },
  { codigo: 27, tasa: "10", nombre: "Bebidas analcohólicas y minerales", etiqueta: "ILA analcohólicas" },
  { codigo: 271, tasa: "18", nombre: "Bebidas analcohólicas con elevado contenido de azúcares", etiqueta: "ILA azucaradas" },
];

/** The additional tax with this code, or undefined. */
export function additionalTax(codigo: number): AdditionalTax | undefined {
  return ADDITIONAL_TAXES.find((t) => t.codigo === codigo);
}

/**
 * How a tax is named where it is printed or shown: its label and rate with a decimal comma, as in Chile.
 *
 * @example
 * additionalTaxLabel(25) // "ILA vinos 20,5 %"
 */
export function additionalTaxLabel(codigo: number): string {
  const tax = additionalTax(codigo);
  return tax ? `${tax.etiqueta} ${tax.tasa.replace(".", ",")} %` : `Impuesto ${codigo}`;
}

/** Document types that may carry additional taxes: facturas 33 and their notes (boletas and exempt types may not). */
export const ADDITIONAL_TAX_TIPOS: readonly number[] = [33, 56, 61];

/**
 * IVA retentions a factura de compra (46) and its notes carry (`Detalle/CodImpAdic`, totalled in `Totales/ImptoReten`
 * with `TipoImp` and `TasaImp`): the buyer keeps that part of the seller's IVA and pays it to the SII itself
 * (formato DTE v2.2, §4, "Factura de Compra emitida"). "Total" codes retain all 19 %; the others a part of it.
 */
export interface Retention {
  /** `TipoImp` / `CodImpAdic`. */
  codigo: number;
  /** Retained percent of the line amount (`TasaImp`), as a decimal string. */
  tasa: string;
  nombre: string;
}

export const RETENTIONS: readonly Retention[] = [
  { codigo: 15, tasa: "19", nombre: "IVA retenido total" },
  { codigo: 30, tasa: "10", nombre: "IVA retenido legumbres" },
  { codigo: 301, tasa: "19", nombre: "IVA retenido legumbres (total)" },
  { codigo: 31, tasa: "19", nombre: "IVA retenido silvestres (total)" },
  { codigo: 32, tasa: "8", nombre: "IVA retenido ganado" },
  { codigo: 321, tasa: "19", nombre: "IVA retenido ganado (total)" },
  { codigo: 33, tasa: "8", nombre: "IVA retenido madera" },
  { codigo: 331, tasa: "19", nombre: "IVA retenido madera (total)" },
  { codigo: 34, tasa: "4", nombre: "IVA retenido trigo" },
  { codigo: 341, tasa: "19", nombre: "IVA retenido trigo (total)" },
  { codigo: 36, tasa: "10", nombre: "IVA retenido arroz" },
  { codigo: 361, tasa: "19", nombre: "IVA retenido arroz (total)" },
  { codigo: 37, tasa: "10", nombre: "IVA retenido hidrobiológicas" },
  { codigo: 371, tasa: "19", nombre: "IVA retenido hidrobiológicas (total)" },
  { codigo: 38, tasa: "19", nombre: "IVA retenido chatarra (total)" },
  { codigo: 39, tasa: "19", nombre: "IVA retenido PPA (total)" },
  { codigo: 41, tasa: "19", nombre: "IVA retenido construcción (total)" },
  { codigo: 47, tasa: "19", nombre: "IVA retenido cartones (total)" },
  { codigo: 48, tasa: "14", nombre: "IVA retenido frambuesas y pasas" },
  { codigo: 481, tasa: "19", nombre: "IVA retenido frambuesas y pasas (total)" },
  { codigo: 49, tasa: "0", nombre: "Factura de compra sin retención" },
];

/** The retention with this code, or undefined. */
export function retention(codigo: number): Retention | undefined {
  return RETENTIONS.find((r) => r.codigo === codigo);
}

/**
 * The words printed beside a retained amount: name and rate with a decimal comma.
 *
 * @example
 * retentionLabel(34) // "IVA retenido trigo (4 %)"
 */
export function retentionLabel(codigo: number): string {
  const r = retention(codigo);
  return r ? `${r.nombre} (${r.tasa.replace(".", ",")} %)` : `Retención ${codigo}`;
}

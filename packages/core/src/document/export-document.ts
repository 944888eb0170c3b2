/**
 * Export documents (BRIEF-doctypes §3, API.md §13): 110 factura de exportación, 111 nota de débito and 112 nota de
 * crédito de exportación. They are `Exportaciones` (not `Documento`) in the DTE, exempt, in a foreign currency named
 * the SII's way, and carry the Aduana's data of the shipment.
 */
import { computeExportTotals, type ExportAdjustment, type ExportLine, type ExportTotals } from "../totals/export-totals.js";
import type { Issuer, Reference } from "./types.js";

export const EXPORT_TIPOS = [110, 111, 112] as const;
export type ExportTipo = (typeof EXPORT_TIPOS)[number];

export const isExportTipo = (tipo: number): tipo is ExportTipo => tipo === 110 || tipo === 111 || tipo === 112;

/** The RUT every foreign buyer is written with ("En doctos. Exportac. 55.555.555-5", formato DTE A50). */
export const FOREIGN_BUYER_RUT = "55555555-5";

/** The foreign buyer (`Receptor` with `Extranjero`). */
export interface ForeignReceiver {
  razonSocial: string;
  /** `Extranjero/Nacionalidad`: an Aduana country code (`COUNTRIES`). */
  nacionalidad?: number;
  /** `Extranjero/NumId`: the buyer's tax id abroad. */
  numId?: string;
  giro?: string;
  /** Foreign address (`DirRecep`), required on 110. */
  direccion?: string;
  /** `CiudadRecep`, required on 110. */
  ciudad?: string;
  email?: string;
}

/** One kind of package (`TipoBultos`). */
export interface ExportPackage {
  /** `CodTpoBultos` (`PACKAGE_KINDS`). */
  tipo: number;
  cantidad: number;
  /** `Marcas`: the SII gives reparo HED-2-804 without them. */
  marcas: string;
  idContainer?: string;
  sello?: string;
  emisorSello?: string;
}

/** `Transporte/Aduana`: the shipment as the Aduana codes it. Weights are decimals; units are `CUSTOMS_UNITS`. */
export interface CustomsData {
  /** `CodModVenta` (`SALE_MODALITIES`). */
  modalidadVenta?: number;
  /** `CodClauVenta` (`SALE_CLAUSES`). */
  clausulaVenta?: number;
  /** `TotClauVenta`: what the importer pays under the clause, 2 decimals. */
  totalClausula?: number | string;
  /** `CodViaTransp` (`TRANSPORT_WAYS`). */
  viaTransporte?: number;
  nombreTransporte?: string;
  /** `CodPtoEmbarque` / `CodPtoDesemb` (`PORTS`). */
  puertoEmbarque?: number;
  puertoDesembarque?: number;
  tara?: number | string;
  unidadTara?: number;
  pesoBruto?: number | string;
  unidadPesoBruto?: number;
  pesoNeto?: number | string;
  unidadPesoNeto?: number;
  totalItems?: number;
  bultos?: ExportPackage[];
  /**
   * `MntFlete` / `MntSeguro` in the document's currency. They are charged to the buyer: each is also written as a
   * global charge (`DscRcgGlobal` R, exempt) and adds to the total, the way the SII's certified sets carry a CIF
   * sale's freight and insurance.
   */
  flete?: number | string;
  seguro?: number | string;
  /** `CodPaisRecep` / `CodPaisDestin` (`COUNTRIES`). */
  paisReceptor?: number;
  paisDestino?: number;
}

/** An export line: the totals' line plus what is printed and written. */
export interface ExportItem extends ExportLine {
  descripcion?: string;
  /** `UnmdItem`. */
  unidad?: string;
  codigo?: string;
}

export interface ExportDocumentInput {
  tipo: ExportTipo;
  folio: number;
  /** `FchEmis`, `YYYY-MM-DD`. */
  fecha: string;
  issuer: Issuer;
  receiver: ForeignReceiver;
  items: ExportItem[];
  /** Global charges and discounts beyond freight and insurance (commissions abroad…). */
  ajustes?: ExportAdjustment[];
  /** `TpoMoneda`: the SII's name of the currency (`SII_CURRENCIES`), never an ISO code. */
  moneda: string;
  /** Pesos per unit of `moneda` (`OtraMoneda/TpoCambio`, up to 4 decimals). */
  tipoCambio: number | string;
  /** `FmaPagExp` (`EXPORT_PAYMENT_FORMS`). */
  formaPagoExportacion?: number;
  /** `FchCancel`: required when paid in advance (FmaPagExp 32). */
  fechaCancelacion?: string;
  /** `IndServicio`: 3 services, 4 hotel, 5 international land transport (`EXPORT_SERVICE_KINDS`). */
  indicadorServicio?: 3 | 4 | 5;
  exportacion?: CustomsData;
  referencias?: Reference[];
}

/** A sample without payment (FmaPagExp 21) totals 0 (formato DTE, A124). */
export const WITHOUT_PAYMENT = 21;

/** The global charges an export carries: its freight and insurance first, then the caller's own. */
export function exportAdjustments(input: Pick<ExportDocumentInput, "exportacion" | "ajustes">): ExportAdjustment[] {
  const a = input.exportacion;
  const customs: ExportAdjustment[] = [];
  if (a?.flete !== undefined) customs.push({ tipo: "R", glosa: "FLETE", valor: a.flete });
  if (a?.seguro !== undefined) customs.push({ tipo: "R", glosa: "SEGURO", valor: a.seguro });
  return [...customs, ...(input.ajustes ?? [])];
}

/**
 * Every amount of an export document, freight and insurance included.
 *
 * @example
 * computeExportDocumentTotals(input).montoTotal // "112517.5"
 */
export function computeExportDocumentTotals(input: ExportDocumentInput): ExportTotals {
  return computeExportTotals({
    items: input.items,
    ajustes: exportAdjustments(input),
    tipoCambio: input.tipoCambio,
    sinPago: input.formaPagoExportacion === WITHOUT_PAYMENT,
  });
}

/**
 * The liquidación-factura (43, BRIEF-doctypes §1, API.md §13): a commission agent (the issuer) settles the sales it
 * made for its principal (the receiver). It is `Liquidacion` (not `Documento`) in the DTE: its lines are the settled
 * documents, its `Comisiones` the agent's charges with their own IVA; amounts may be negative.
 */
import type { Commission, SettledDocument } from "../totals/liquidation-totals.js";
import { taxDocumentTipo, type Issuer, type PaymentTerm, type Receiver, type Reference } from "./types.js";

/**
 * A 43, or the debit/credit note (56/61) that repeats a 43's settled documents and commissions to annul or correct
 * it: such a note is a `Documento` (DTEType has 56/61, not 43) whose `Totales/Comisiones` and `Comisiones` lines
 * carry the commissions (formato DTE A121–A124, zone F), so its `MntTotal` is the 43's formula.
 */
export interface LiquidationDocumentInput {
  tipo: 43 | 56 | 61;
  folio: number;
  /** `FchEmis`, `YYYY-MM-DD`. */
  fecha: string;
  issuer: Issuer;
  /** The principal (mandante): giro, direccion and comuna are required. */
  receiver: Receiver;
  /** `FmaPago`, informed always (2 crédito when not given, as the SII assumes). */
  formaPago?: PaymentTerm;
  documentos: (SettledDocument & { descripcion?: string; unidad?: string })[];
  comisiones?: Commission[];
  referencias?: Reference[];
}

/**
 * Whether an input is built the 43's way: it carries settled documents (a 43, or a 56/61 that repeats one's).
 *
 * @example
 * isLiquidationInput({ tipo: 61, documentos: [{ tipoDocLiq: 33, nombre: "Ventas", monto: 1000 }] }) // true
 */
export function isLiquidationInput(input: object): input is LiquidationDocumentInput {
  return Array.isArray((input as { documentos?: unknown }).documentos);
}

/**
 * Whether a liquidation input is a note (56/61) on a 43 rather than the 43 itself.
 *
 * @example
 * isLiquidationNote({ tipo: 61, referencias: [{ tipoDoc: 43, folio: 1, fecha: "2026-06-15" }] }) // true
 */
export function isLiquidationNote(input: { tipo: number; referencias?: ReadonlyArray<{ tipoDoc: number | string }> }): boolean {
  return (input.tipo === 56 || input.tipo === 61) && (input.referencias ?? []).some((r) => taxDocumentTipo(r.tipoDoc) === 43);
}

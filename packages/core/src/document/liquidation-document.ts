/**
 * The liquidación-factura (43, BRIEF-doctypes §1, API.md §13): a commission agent (the issuer) settles the sales it
 * made for its principal (the receiver). It is `Liquidacion` (not `Documento`) in the DTE: its lines are the settled
 * documents, its `Comisiones` the agent's charges with their own IVA; amounts may be negative.
 */
import type { Commission, SettledDocument } from "../totals/liquidation-totals.js";
import type { Issuer, PaymentTerm, Receiver, Reference } from "./types.js";

export interface LiquidationDocumentInput {
  tipo: 43;
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

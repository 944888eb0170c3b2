/**
 * The factura de compra (46, BRIEF-doctypes §2, API.md §13): the buyer issues it (the issuer) for what it buys from
 * the seller (the receiver) and retains the seller's IVA, wholly or in part. It is a `Documento` shaped like a 33,
 * with a retention code on each line; prices are always net.
 */
import type { PurchaseLine } from "../totals/purchase-totals.js";
import type { DocumentInput } from "./types.js";

export interface PurchaseDocumentInput extends Omit<DocumentInput, "tipo" | "items" | "preciosBrutos" | "traslado" | "transporte"> {
  tipo: 46;
  items: PurchaseLine[];
}

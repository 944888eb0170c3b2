/**
 * The factura de compra (46, BRIEF-doctypes §2, API.md §13): the buyer issues it (the issuer) for what it buys from
 * the seller (the receiver) and retains the seller's IVA, wholly or in part. It is a `Documento` shaped like a 33,
 * with a retention code on each line; prices are always net.
 */
import type { PurchaseLine } from "../totals/purchase-totals.js";
import { taxDocumentTipo, type DocumentInput } from "./types.js";

/**
 * A 46, or a debit/credit note (56/61) that modifies one: such a note repeats the retention on its lines (formato
 * DTE §4 "Notas de Crédito / Débito" codes, A118 `IVANoRet`), so it is built the 46's way with its own `TipoDTE`.
 */
export interface PurchaseDocumentInput extends Omit<DocumentInput, "tipo" | "items" | "preciosBrutos" | "traslado" | "transporte"> {
  tipo: 46 | 56 | 61;
  items: PurchaseLine[];
}

/**
 * Whether a document is built as a factura de compra: a 46, or a 56/61 referencing a 46.
 *
 * @example
 * isPurchaseDocument({ tipo: 61, referencias: [{ tipoDoc: 46, folio: 3, fecha: "2026-06-15" }] }) // true
 */
export function isPurchaseDocument(input: { tipo: number; referencias?: ReadonlyArray<{ tipoDoc: number | string }> }): boolean {
  if (input.tipo === 46) return true;
  return (input.tipo === 56 || input.tipo === 61) && (input.referencias ?? []).some((r) => taxDocumentTipo(r.tipoDoc) === 46);
}

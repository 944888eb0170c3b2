/**
 * Every problem of a factura de compra (46) at once: a 33's rules (lines, parties with the seller's giro, address and
 * comuna, references, amounts), but all-exempt lines are allowed, prices are net only (`precios_brutos`
 * `not_allowed`) and each line's `retencion` is a code of `RETENTIONS` on a taxable line.
 */
import type { PurchaseDocumentInput } from "../document/purchase-document.js";
import type { DocumentInput } from "../document/types.js";
import type { ValidationIssue } from "../errors/index.js";
import { RETENTIONS, retention } from "../tables/retentions.js";
import { validateDocument } from "./validate-document.js";

/**
 * Checks a factura de compra; returns `[]` when valid.
 *
 * @example
 * validatePurchaseDocument({ ...input, items: [{ nombre: "Trigo", cantidad: 1, precio: 1000, retencion: 99 }] })
 * // [{ path: "items[0].retencion", reason: "enum", … }]
 */
export function validatePurchaseDocument(input: PurchaseDocumentInput): ValidationIssue[] {
  // A 46 is checked as a 33, a note on it as the note it is.
  const asFactura = { ...input, tipo: input.tipo === 46 ? 33 : input.tipo } as unknown as DocumentInput;
  // A 46 may buy only exempt goods (LibreDTE's 046_002); the 33's "issue a 34 instead" does not apply.
  const issues = validateDocument(asFactura).filter((i) => !(i.path === "tipo" && i.reason === "not_allowed"));
  if ((input as { preciosBrutos?: unknown }).preciosBrutos !== undefined) {
    issues.push({ path: "precios_brutos", reason: "not_allowed", message: "a factura de compra's prices are net" });
  }
  (Array.isArray(input.items) ? input.items : []).forEach((item, i) => {
    const code = item.retencion;
    if (code === undefined || code === null) return;
    const path = `items[${i}].retencion`;
    if (typeof code !== "number" || retention(code) === undefined) {
      issues.push({ path, reason: "enum", message: `must be one of ${RETENTIONS.map((r) => r.codigo).join(", ")}` });
    } else if (item.exento === true) {
      issues.push({ path, reason: "not_allowed", message: "an exempt line carries no IVA to retain" });
    }
  });
  return issues;
}

/** Public entry for the factura de compra (46) and the notes that modify one (56/61): validate, total, build its `Documento`, stamp the TED, sign. */
import type { Caf } from "../caf/types.js";
import type { PurchaseDocumentInput } from "../document/purchase-document.js";
import { ValidationError } from "../errors/index.js";
import type { SigningIdentity } from "../signature/types.js";
import { computePurchaseTotals, type PurchaseTotals } from "../totals/purchase-totals.js";
import type { SignedDte } from "./build-signed-dte.js";
import { renderPurchaseBody } from "./render-purchase.js";
import { stampAndSign } from "./render-signed-dte.js";
import { tedFieldsOf } from "./render-ted.js";
import { validatePurchaseDocument } from "./validate-purchase.js";

export interface SignedPurchase extends SignedDte {
  totals: PurchaseTotals;
}

/**
 * Builds the signed stand-alone DTE of a factura de compra. Throws `ValidationError` with every issue, or
 * `CAF_INVALID`.
 *
 * @example
 * const { xml, totals } = buildSignedPurchase({ input, caf, identity, timestamp: "2026-06-15T10:00:00" });
 */
export function buildSignedPurchase(options: {
  input: PurchaseDocumentInput;
  caf: Caf;
  identity: SigningIdentity;
  timestamp: string;
}): SignedPurchase {
  const { input, caf, identity, timestamp } = options;
  const issues = validatePurchaseDocument(input);
  if (issues.length > 0) throw new ValidationError(issues);
  const totals = computePurchaseTotals(input);
  const body = renderPurchaseBody(input, totals);
  const ted = tedFieldsOf(input, totals.montoTotal, input.items[0]?.nombre ?? "");
  return { ...stampAndSign({ element: "Documento", id: `T${input.tipo}F${input.folio}`, body, ted, caf, identity, timestamp }), totals };
}

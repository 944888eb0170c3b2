/**
 * One entry for every tipo Timbre issues: the tipo picks its builder. 33/34/39/41/52/56/61 go to `buildSignedDte`
 * (with the totals the caller computed); 46 and the notes on a 46, 43 and the notes repeating one, and 110–112 to their own builders, which validate and total the
 * input themselves (their `totals` argument is not read).
 */
import type { ExportDocumentInput } from "../document/export-document.js";
import { isLiquidationInput, type LiquidationDocumentInput } from "../document/liquidation-document.js";
import { isPurchaseDocument, type PurchaseDocumentInput } from "../document/purchase-document.js";
import type { DocumentInput } from "../document/types.js";
import { buildSignedDte, type SignedDte, type SignedDteOptions } from "./build-signed-dte.js";
import { buildSignedExport } from "./build-signed-export.js";
import { buildSignedLiquidation } from "./build-signed-liquidation.js";
import { buildSignedPurchase } from "./build-signed-purchase.js";

/** The input of any tipo: the classic `DocumentInput` or one of the new tipos' own. */
export type AnyDocumentInput = DocumentInput | PurchaseDocumentInput | LiquidationDocumentInput | ExportDocumentInput;

/** Only what every builder returns (a worker posts it back: no totals on the wire). */
const signedOnly = ({ xml, ted, documentId, envelopeC14n }: SignedDte): SignedDte => ({ xml, ted, documentId, envelopeC14n });

/**
 * Builds the signed DTE of any tipo. Throws `ValidationError` or `CAF_INVALID` as the builder it picks.
 *
 * @example
 * buildSignedDteOfTipo({ input: exportInput as never, totals, caf, identity, timestamp }) // an `Exportaciones` DTE
 */
export function buildSignedDteOfTipo(options: SignedDteOptions): SignedDte {
  const input = options.input as AnyDocumentInput;
  const { caf, identity, timestamp } = options;
  if (isPurchaseDocument(input)) return signedOnly(buildSignedPurchase({ input: input as PurchaseDocumentInput, caf, identity, timestamp }));
  if (isLiquidationInput(input)) return signedOnly(buildSignedLiquidation({ input, caf, identity, timestamp }));
  switch (input.tipo) {
    case 110:
    case 111:
    case 112:
      return signedOnly(buildSignedExport({ input, caf, identity, timestamp }));
    default:
      return buildSignedDte(options);
  }
}

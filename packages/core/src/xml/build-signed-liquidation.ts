/**
 * Public entry for the liquidación-factura (43): validate, total, build `Liquidacion`, stamp the TED, sign. A 56/61
 * repeating a 43 (`isLiquidationNote`) is built the same way into a `Documento`.
 */
import type { Caf } from "../caf/types.js";
import type { LiquidationDocumentInput } from "../document/liquidation-document.js";
import { ValidationError } from "../errors/index.js";
import type { SigningIdentity } from "../signature/types.js";
import { computeLiquidationTotals, type LiquidationTotals } from "../totals/liquidation-totals.js";
import type { SignedDte } from "./build-signed-dte.js";
import { liquidationBranchOf } from "./render-liquidacion.js";
import { stampAndSign } from "./render-signed-dte.js";
import { tedFieldsOf } from "./render-ted.js";
import { validateLiquidationDocument } from "./validate-liquidation.js";

export interface SignedLiquidation extends SignedDte {
  totals: LiquidationTotals;
}

/**
 * Builds the signed stand-alone DTE of a liquidación-factura. Throws `ValidationError` with every issue, or
 * `CAF_INVALID`.
 *
 * @example
 * const { xml, totals } = buildSignedLiquidation({ input, caf, identity, timestamp: "2026-06-15T10:00:00" });
 */
export function buildSignedLiquidation(options: {
  input: LiquidationDocumentInput;
  caf: Caf;
  identity: SigningIdentity;
  timestamp: string;
}): SignedLiquidation {
  const { input, caf, identity, timestamp } = options;
  const issues = validateLiquidationDocument(input);
  if (issues.length > 0) throw new ValidationError(issues);
  const totals = computeLiquidationTotals(input);
  const { element, id, body } = liquidationBranchOf(input, totals);
  const ted = tedFieldsOf(input, totals.montoTotal, input.documentos[0]?.nombre ?? "");
  return { ...stampAndSign({ element, id, body, ted, caf, identity, timestamp }), totals };
}

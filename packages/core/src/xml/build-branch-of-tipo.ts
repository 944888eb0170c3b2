/**
 * The unsigned branch element of any tipo (preview): `Documento` (classic tipos, 46 and the notes on a 46),
 * `Liquidacion` (43; a note repeating one is a `Documento`) or `Exportaciones` (110–112), without `TED` and `TmstFirma`, as it will appear in the signed DTE.
 */
import { computeExportDocumentTotals, type ExportDocumentInput } from "../document/export-document.js";
import { isLiquidationInput } from "../document/liquidation-document.js";
import { isPurchaseDocument, type PurchaseDocumentInput } from "../document/purchase-document.js";
import type { DocumentInput } from "../document/types.js";
import { ValidationError, type ValidationIssue } from "../errors/index.js";
import type { Totals } from "../totals/index.js";
import { computeLiquidationTotals } from "../totals/liquidation-totals.js";
import { computePurchaseTotals } from "../totals/purchase-totals.js";
import type { AnyDocumentInput } from "./build-signed-of-tipo.js";
import { buildDocumento } from "./build-documento.js";
import { exportDocumentId, renderExportacionesBody } from "./render-exportaciones.js";
import { liquidationBranchOf } from "./render-liquidacion.js";
import { renderPurchaseBody } from "./render-purchase.js";
import { validateExportDocument } from "./validate-export.js";
import { validateLiquidationDocument } from "./validate-liquidation.js";
import { validatePurchaseDocument } from "./validate-purchase.js";

function assertNoIssues(issues: ValidationIssue[]): void {
  if (issues.length > 0) throw new ValidationError(issues);
}

/**
 * Builds the unsigned branch of any tipo; `totals` is read for the classic tipos only (the others total themselves).
 * Throws `ValidationError` on invalid input.
 *
 * @example
 * buildBranchOfTipo(exportInput, totals) // '<Exportaciones ID="T110F1"><Encabezado>…'
 */
export function buildBranchOfTipo(input: AnyDocumentInput, totals: Totals): string {
  if (isPurchaseDocument(input)) {
    const p = input as PurchaseDocumentInput;
    assertNoIssues(validatePurchaseDocument(p));
    return `<Documento ID="T${p.tipo}F${p.folio}">${renderPurchaseBody(p, computePurchaseTotals(p)).file}</Documento>`;
  }
  if (isLiquidationInput(input)) {
    assertNoIssues(validateLiquidationDocument(input));
    const { element, id, body } = liquidationBranchOf(input, computeLiquidationTotals(input));
    return `<${element} ID="${id}">${body.file}</${element}>`;
  }
  if (input.tipo === 110 || input.tipo === 111 || input.tipo === 112) {
    const e = input as ExportDocumentInput;
    assertNoIssues(validateExportDocument(e));
    return `<Exportaciones ID="${exportDocumentId(e)}">${renderExportacionesBody(e, computeExportDocumentTotals(e)).file}</Exportaciones>`;
  }
  return buildDocumento(input as DocumentInput, totals);
}

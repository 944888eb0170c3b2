/** Public entry for export documents (110–112): validate, total, build `Exportaciones`, stamp the TED, sign. */
import type { Caf } from "../caf/types.js";
import { FOREIGN_BUYER_RUT, computeExportDocumentTotals, type ExportDocumentInput } from "../document/export-document.js";
import { ValidationError } from "../errors/index.js";
import type { SigningIdentity } from "../signature/types.js";
import type { ExportTotals } from "../totals/export-totals.js";
import type { SignedDte } from "./build-signed-dte.js";
import { exportDocumentId, renderExportacionesBody } from "./render-exportaciones.js";
import { stampAndSign } from "./render-signed-dte.js";
import { tedFieldsOf } from "./render-ted.js";
import { validateExportDocument } from "./validate-export.js";

export interface SignedExport extends SignedDte {
  totals: ExportTotals;
}

/**
 * Builds the signed stand-alone DTE of an export document. The TED's `MNT` is `MntTotal` exactly as written, in the
 * foreign currency (a rounded one draws TED-3-640). Throws `ValidationError` with every issue, or `CAF_INVALID`.
 *
 * @example
 * const { xml, ted, totals } = buildSignedExport({ input, caf, identity, timestamp: "2026-06-15T10:00:00" });
 */
export function buildSignedExport(options: {
  input: ExportDocumentInput;
  caf: Caf;
  identity: SigningIdentity;
  /** `TSTED` and `TmstFirma`, Chile local time. */
  timestamp: string;
}): SignedExport {
  const { input, caf, identity, timestamp } = options;
  const issues = validateExportDocument(input);
  if (issues.length > 0) throw new ValidationError(issues);
  const totals = computeExportDocumentTotals(input);
  const body = renderExportacionesBody(input, totals);
  // Every foreign buyer is 55555555-5 in the TED, as in Receptor.
  const receiver = { rut: FOREIGN_BUYER_RUT, razonSocial: input.receiver.razonSocial };
  const ted = tedFieldsOf({ ...input, receiver }, totals.montoTotal, input.items[0]?.nombre ?? "");
  return { ...stampAndSign({ element: "Exportaciones", id: exportDocumentId(input), body, ted, caf, identity, timestamp }), totals };
}

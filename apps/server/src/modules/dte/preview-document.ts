/** `POST /v1/dte/preview`: the totals and the unsigned `Documento` (`Liquidacion`, `Exportaciones`) (or a PDF marked SIN VALIDEZ TRIBUTARIA). No folio, nothing stored. */
import { buildBranchOfTipo } from "@timbre/core/xml";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { prepareEmission, resolutionOf } from "./prepare-emission.js";
import { presentTotals } from "./present-totals.js";
import { tipoExtras } from "./tipo-inputs.js";
import { renderOffThread } from "./render-off-thread.js";

export async function previewDocument(deps: Deps, scope: BusinessScope, body: unknown) {
  const prepared = await prepareEmission(deps, scope, body, { preview: true });
  const tipo = prepared.input.tipo;
  // Built with a placeholder folio 1, shown as 0: a preview takes no folio.
  const xml = buildBranchOfTipo(prepared.input, prepared.totals)
    .replace(`ID="T${tipo}F1"`, `ID="T${tipo}F0"`)
    .replace("<Folio>1</Folio>", "<Folio>0</Folio>");
  return { totals: { ...presentTotals(prepared.totals), ...tipoExtras(prepared.input) }, xml_preview: xml };
}

export async function previewPdf(deps: Deps, scope: BusinessScope, body: unknown): Promise<Uint8Array> {
  const prepared = await prepareEmission(deps, scope, body, { preview: true });
  const document = { input: prepared.input, totals: prepared.totals, ted: null, resolution: resolutionOf(prepared.business, scope.environment, null) };
  return renderOffThread(deps, scope, document, { preview: true });
}

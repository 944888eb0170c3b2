/** The unsigned `Documento` (preview, tests): what the DTE will contain before `TED` and `TmstFirma`. */
import type { DocumentInput } from "../document/types.js";
import type { Totals } from "../totals/index.js";
import { assertValidDocument } from "./assert-valid.js";
import { documentId, renderDocumentoBody } from "./render-documento.js";

/**
 * Builds `<Documento ID="T33F1">…</Documento>` without `TED` and `TmstFirma`, exactly as its text will appear in
 * the signed DTE: elements in `xs:sequence` order, empty optionals omitted, no self-closing tags, texts escaped
 * with `&amp; &lt; &gt; &quot; &apos;`. It differs from its C14N form only by the `xmlns` the canonical form
 * inherits from `DTE` and by quotes written as entities. Throws `ValidationError` on invalid input.
 *
 * @example
 * const input = { tipo: 33, folio: 1, fecha: "2026-01-15", issuer, receiver, items: [{ nombre: "Servicio", cantidad: 1, precio: 1000 }] };
 * buildDocumento(input, computeTotals(input)) // '<Documento ID="T33F1"><Encabezado><IdDoc><TipoDTE>33</TipoDTE>…'
 */
export function buildDocumento(input: DocumentInput, totals: Totals): string {
  assertValidDocument(input);
  return `<Documento ID="${documentId(input)}">${renderDocumentoBody(input, totals).file}</Documento>`;
}

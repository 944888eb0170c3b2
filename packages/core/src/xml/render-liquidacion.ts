/**
 * The content of `Liquidacion` (43) before the TED, in file and canonical form, in DTE_v10's order
 * (BRIEF-doctypes §1): `Encabezado` (IdDoc, Emisor, Receptor, Totales with the commissions' sums), the settled
 * documents as `Detalle` (with `TpoDocLiq`), `Referencia`, then the `Comisiones` lines.
 */
import type { LiquidationDocumentInput } from "../document/liquidation-document.js";
import { normalizeRut } from "../rut/index.js";
import type { LiquidationTotals } from "../totals/liquidation-totals.js";
import { DualWriter } from "./dual-writer.js";
import { writeCommissionLines, writeLiquidationTotals, writeSettledDocuments } from "./write-liquidation.js";
import { renderLiquidationNoteBody } from "./render-liquidation-note.js";

/** `T43F1` (`T61F7` for a note on a 43): the element's `ID`. */
export const liquidationDocumentId = (input: Pick<LiquidationDocumentInput, "folio"> & { tipo?: number }): string => `T${input.tipo ?? 43}F${input.folio}`;

/**
 * The branch of a liquidation input: `Liquidacion` for the 43, `Documento` for a 56/61 that repeats one.
 *
 * @example
 * liquidationBranchOf(note, totals).element // "Documento"
 */
export function liquidationBranchOf(input: LiquidationDocumentInput, totals: LiquidationTotals): { element: "Liquidacion" | "Documento"; id: string; body: DualWriter } {
  const id = liquidationDocumentId(input);
  if (input.tipo === 43) return { element: "Liquidacion", id, body: renderLiquidacionBody(input, totals) };
  return { element: "Documento", id, body: renderLiquidationNoteBody(input, totals) };
}

/**
 * Writes everything in `Liquidacion` before the TED. Does not validate.
 *
 * @example
 * const { file } = renderLiquidacionBody(input, computeLiquidationTotals(input));
 */
export function renderLiquidacionBody(input: LiquidationDocumentInput, totals: LiquidationTotals): DualWriter {
  const w = new DualWriter();
  const e = input.issuer;
  const r = input.receiver;
  w.raw("<Encabezado><IdDoc>").value("TipoDTE", 43).value("Folio", input.folio).text("FchEmis", input.fecha);
  w.value("FmaPago", input.formaPago ?? 2).raw("</IdDoc>");
  w.raw("<Emisor>").value("RUTEmisor", normalizeRut(e.rut)).text("RznSoc", e.razonSocial).text("GiroEmis", e.giro);
  w.optText("Telefono", e.telefono).optText("CorreoEmisor", e.email);
  for (const code of e.acteco) w.value("Acteco", code);
  if (e.sucursalSii !== undefined) w.value("CdgSIISucur", e.sucursalSii);
  w.text("DirOrigen", e.direccion).optText("CmnaOrigen", e.comuna).optText("CiudadOrigen", e.ciudad).raw("</Emisor>");
  w.raw("<Receptor>").value("RUTRecep", normalizeRut(r.rut)).text("RznSocRecep", r.razonSocial).optText("GiroRecep", r.giro);
  w.optText("Contacto", r.contacto).optText("CorreoRecep", r.email).optText("DirRecep", r.direccion);
  w.optText("CmnaRecep", r.comuna).optText("CiudadRecep", r.ciudad).raw("</Receptor>");

  writeLiquidationTotals(w, totals);

  writeSettledDocuments(w, input.documentos, true);
  (input.referencias ?? []).forEach((ref, i) => {
    w.raw("<Referencia>").value("NroLinRef", i + 1).text("TpoDocRef", String(ref.tipoDoc)).text("FolioRef", String(ref.folio));
    w.text("FchRef", ref.fecha);
    if (ref.codigo !== undefined) w.value("CodRef", ref.codigo);
    w.optText("RazonRef", ref.razon).raw("</Referencia>");
  });
  writeCommissionLines(w, input, totals);
  return w;
}

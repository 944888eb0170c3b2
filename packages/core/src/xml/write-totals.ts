/** `Totales` in `xs:sequence` order (BRIEF §2 / §2.1 / §3 rule 6). */
import { formatDecimal } from "../decimal/index.js";
import { isDispatchGuide, isExemptTipo, isReceipt, type Tipo } from "../document/types.js";
import type { Totals } from "../totals/index.js";
import type { DualWriter } from "./dual-writer.js";

/**
 * `Totales`: exempt-only documents carry `MntExe` and `MntTotal` only; boletas omit `TasaIVA` and a zero `IVA`; a
 * guía de despacho writes only the amounts it has — `MntNeto`/`TasaIVA`/`IVA` when its net amount is not zero,
 * `MntExe` when its exempt amount is not — so a guía that moves goods without prices (traslado interno, say)
 * carries `MntTotal` 0 alone (formato DTE: only `MntTotal` is mandatory on guías).
 *
 * @example
 * writeTotales(w, 33, totals); // <Totales><MntNeto>54673</MntNeto><TasaIVA>19</TasaIVA><IVA>10388</IVA><MntTotal>65061</MntTotal></Totales>
 */
export function writeTotales(w: DualWriter, tipo: Tipo, totals: Totals): void {
  w.raw("<Totales>");
  const hasTaxable = !isExemptTipo(tipo) && totals.lines.some((l) => !l.exento);
  if (isDispatchGuide(tipo)) {
    if (totals.montoNeto > 0) w.value("MntNeto", totals.montoNeto);
    if (totals.montoExento > 0) w.value("MntExe", totals.montoExento);
    if (totals.montoNeto > 0) w.value("TasaIVA", totals.tasaIva).value("IVA", totals.montoIva);
  } else if (!hasTaxable) {
    // 34/41 (and notes whose lines are all exempt): only MntExe and MntTotal.
    w.value("MntExe", totals.montoExento);
  } else if (isReceipt(tipo)) {
    w.value("MntNeto", totals.montoNeto);
    if (totals.montoExento > 0) w.value("MntExe", totals.montoExento);
    // EnvioBOLETA types IVA as positiveInteger: omit when 0; no TasaIVA.
    if (totals.montoIva > 0) w.value("IVA", totals.montoIva);
  } else {
    w.value("MntNeto", totals.montoNeto);
    if (totals.montoExento > 0) w.value("MntExe", totals.montoExento);
    w.value("TasaIVA", totals.tasaIva).value("IVA", totals.montoIva);
    for (const t of totals.impuestosAdicionales ?? []) {
      w.raw("<ImptoReten>").value("TipoImp", t.codigo).value("TasaImp", formatDecimal(t.tasa)).value("MontoImp", t.monto).raw("</ImptoReten>");
    }
  }
  w.value("MntTotal", totals.montoTotal).raw("</Totales>");
}

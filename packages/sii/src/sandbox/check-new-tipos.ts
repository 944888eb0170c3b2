/**
 * The SII's checks of export documents (110–112) beyond the schema, as BRIEF-doctypes §3 reports them seen in
 * certification, with the SII's codes:
 * - `HED-3-834` no pesos block (`OtraMoneda` with `PESO CL`), mandatory since the 2017-05-31 format change;
 * - `HED-2-804` packages (`TipoBultos`) without `Marcas` (a reparo);
 * - `TED-3-640` the timbre's `MNT` is not `MntTotal` exactly as written (e.g. rounded to a whole number);
 * - `HED-1-803` a sample without payment (`FmaPagExp` 21) with non-zero amounts in pesos (a reparo).
 * A currency outside `TipMonType` ("USD") never gets here: the envelope's XSD check refuses it whole, as the SII's does.
 */
import { elementText, findElements, firstElement } from "../protocol/xml-text.js";
import type { DteFacts } from "./read-envelope.js";

const EXPORT_TIPOS = new Set([110, 111, 112]);
/** `FmaPagExp` of a sample without commercial value. */
const WITHOUT_PAYMENT = "21";

/** `"112517.50"` and `"112517.5"` are the same amount; `"112518"` is not. */
const sameDecimal = (a: string, b: string): boolean => {
  const norm = (s: string) => s.trim().replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "");
  return norm(a) === norm(b);
};

/**
 * The codes an export document earns; `[]` for other tipos.
 *
 * @example
 * exportProblems(dte) // ["HED-3-834"] when the pesos block is missing
 */
export function exportProblems(dte: Pick<DteFacts, "tipo" | "text">): string[] {
  if (!EXPORT_TIPOS.has(dte.tipo)) return [];
  const codes: string[] = [];
  const encabezado = firstElement(dte.text, "Encabezado")?.inner ?? "";
  const otra = firstElement(encabezado, "OtraMoneda")?.inner;
  if (otra === undefined || elementText(otra, "TpoMoneda")?.trim() !== "PESO CL") codes.push("HED-3-834");
  for (const bultos of findElements(encabezado, "TipoBultos")) {
    if ((elementText(bultos.inner, "Marcas") ?? "").trim() === "") codes.push("HED-2-804");
  }
  const total = elementText(firstElement(encabezado, "Totales")?.inner ?? "", "MntTotal") ?? "";
  const dd = firstElement(firstElement(dte.text, "TED")?.inner ?? "", "DD")?.inner ?? "";
  const mnt = elementText(dd, "MNT") ?? "";
  if (!sameDecimal(total, mnt)) codes.push("TED-3-640");
  const idDoc = firstElement(encabezado, "IdDoc")?.inner ?? "";
  if (elementText(idDoc, "FmaPagExp")?.trim() === WITHOUT_PAYMENT && otra !== undefined) {
    const pesos = [elementText(otra, "MntExeOtrMnda"), elementText(otra, "MntTotOtrMnda")].filter((v): v is string => v !== null);
    if (pesos.some((v) => Number(v) !== 0)) codes.push("HED-1-803");
  }
  return [...new Set(codes)];
}

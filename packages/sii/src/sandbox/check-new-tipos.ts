/**
 * The SII's checks of the new tipos beyond the schema, as BRIEF-doctypes reports them seen in certification.
 *
 * Export documents (110–112, §3), with the SII's codes:
 * - `HED-3-834` no pesos block (`OtraMoneda` with `PESO CL`), mandatory since the 2017-05-31 format change;
 * - `HED-2-804` packages (`TipoBultos`) without `Marcas` (a reparo);
 * - `TED-3-640` the timbre's `MNT` is not `MntTotal` exactly as written (e.g. rounded to a whole number);
 * - `HED-1-803` a sample without payment (`FmaPagExp` 21) with non-zero amounts in pesos (a reparo).
 * A currency outside `TipMonType` ("USD") never gets here: the envelope's XSD check refuses it whole, as the SII's does.
 *
 * Facturas de compra (46, and the 56/61 that reference one, §2): `HED-2-302` "[15] Monto [0]<>[IVA]" when the IVA
 * retained with code 15 is not what the lines marked `CodImpAdic` 15 give (19 % of them; the SII's own glosa shows
 * 0 when no line is marked) or its `TasaImp` is not 19; `HED-2-300` "Total Impuesto/Retencion No Cuadra con
 * Detalle" when another retention's `MontoImp` is not its rate over its lines, or a line's code has no `ImptoReten`.
 *
 * Liquidaciones-factura (43, and the notes repeating one with `Comisiones`, §1): the reparos S1 saw, whose codes
 * the SII does not publish (sandbox codes): `SBX-2-5` "Valores de la Línea No Cuadran" (`MontoItem` ≠ round(QtyItem ×
 * PrcItem) when both are given) and `SBX-2-6` "Encabezado No Cuadran" (neto, exento, IVA, the commissions' sums or
 * IVA, `MntTotal` = neto + exento + IVA − commissions, or an `IVAProp`/`IVATerc` above the IVA).
 */
import { elementText, findElements, firstElement } from "../protocol/xml-text.js";
import type { DteFacts } from "./read-envelope.js";

const EXPORT_TIPOS = new Set([110, 111, 112]);
const NOTES = new Set([56, 61]);
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

/** Half away from zero, as the SII's PHP `round`. */
const roundSii = (x: number): number => Math.sign(x) * Math.round(Math.abs(x));
const num = (text: string | null | undefined): number => (text === null || text === undefined || text.trim() === "" ? 0 : Number(text));
/** Whether a note references a document of this tipo (`TpoDocRef`). */
const referencesTipo = (text: string, tipo: number): boolean =>
  findElements(text, "Referencia").some((r) => elementText(r.inner, "TpoDocRef")?.trim() === String(tipo));

interface Line { exempt: boolean; code: string | null; qty: string | null; price: string | null; amount: number }
const linesOf = (text: string): Line[] =>
  findElements(text, "Detalle").map((d) => ({
    exempt: elementText(d.inner, "IndExe")?.trim() === "1",
    code: elementText(d.inner, "CodImpAdic")?.trim() ?? null,
    qty: elementText(d.inner, "QtyItem"),
    price: elementText(d.inner, "PrcItem"),
    amount: num(elementText(d.inner, "MontoItem")),
  }));

/**
 * The codes a factura de compra (or a note on one) earns for its retentions; `[]` for other documents.
 *
 * @example
 * purchaseProblems(dte) // ["HED-2-302"] when no line carries CodImpAdic 15
 */
export function purchaseProblems(dte: Pick<DteFacts, "tipo" | "text">): string[] {
  if (dte.tipo !== 46 && !(NOTES.has(dte.tipo) && referencesTipo(dte.text, 46))) return [];
  const totales = firstElement(firstElement(dte.text, "Encabezado")?.inner ?? "", "Totales")?.inner ?? "";
  const bases = new Map<string, number>();
  for (const line of linesOf(dte.text)) {
    if (line.exempt || line.code === null) continue;
    bases.set(line.code, (bases.get(line.code) ?? 0) + line.amount);
  }
  const codes: string[] = [];
  const declared = new Set<string>();
  for (const tax of findElements(totales, "ImptoReten")) {
    const code = elementText(tax.inner, "TipoImp")?.trim() ?? "";
    const rate = num(elementText(tax.inner, "TasaImp"));
    const amount = num(elementText(tax.inner, "MontoImp"));
    declared.add(code);
    const expected = roundSii(((bases.get(code) ?? 0) * rate) / 100);
    if (code === "15") {
      if (rate !== 19 || amount !== expected) codes.push("HED-2-302");
    } else if (amount !== expected) codes.push("HED-2-300");
  }
  if ([...bases.keys()].some((code) => !declared.has(code))) codes.push("HED-2-300");
  return [...new Set(codes)];
}

/**
 * The "No Cuadran" reparos of a liquidación-factura, or of a note repeating one's commissions; `[]` otherwise.
 *
 * @example
 * liquidationProblems(dte) // ["SBX-2-6"] when MntTotal does not deduct the commissions
 */
export function liquidationProblems(dte: Pick<DteFacts, "tipo" | "text">): string[] {
  const encabezado = firstElement(dte.text, "Encabezado")?.inner ?? "";
  const totales = firstElement(encabezado, "Totales")?.inner ?? "";
  const header = firstElement(totales, "Comisiones")?.inner;
  if (dte.tipo !== 43 && !(NOTES.has(dte.tipo) && header !== undefined && referencesTipo(dte.text, 43))) return [];
  const codes: string[] = [];
  const lines = linesOf(dte.text);
  if (lines.some((l) => l.qty !== null && l.price !== null && roundSii(num(l.qty) * num(l.price)) !== l.amount)) codes.push("SBX-2-5");
  // Commission lines come after `Referencia`, outside `Encabezado` (whose `Totales/Comisiones` holds the sums).
  const body = dte.text.slice(dte.text.indexOf("</Encabezado>"));
  const commissions = findElements(body, "Comisiones").map((c) => ({
    net: num(elementText(c.inner, "ValComNeto")), exempt: num(elementText(c.inner, "ValComExe")), iva: elementText(c.inner, "ValComIVA"),
  }));
  const sum = (pick: (c: (typeof commissions)[number]) => number) => commissions.reduce((t, c) => t + pick(c), 0);
  const neto = num(elementText(totales, "MntNeto"));
  const iva = num(elementText(totales, "IVA"));
  const rate = num(elementText(totales, "TasaIVA") ?? "19");
  const com = { net: num(elementText(header ?? "", "ValComNeto")), exempt: num(elementText(header ?? "", "ValComExe")), iva: num(elementText(header ?? "", "ValComIVA")) };
  const wrong = [
    neto !== lines.filter((l) => !l.exempt).reduce((t, l) => t + l.amount, 0),
    num(elementText(totales, "MntExe")) !== lines.filter((l) => l.exempt).reduce((t, l) => t + l.amount, 0),
    iva !== roundSii((neto * rate) / 100),
    commissions.some((c) => c.iva !== null && num(c.iva) !== roundSii((c.net * rate) / 100)),
    com.net !== sum((c) => c.net) || com.exempt !== sum((c) => c.exempt) || com.iva !== sum((c) => num(c.iva)),
    num(elementText(totales, "MntTotal")) !== neto + num(elementText(totales, "MntExe")) + iva - com.net - com.exempt - com.iva,
    [elementText(totales, "IVAProp"), elementText(totales, "IVATerc")].some((v) => v !== null && num(v) > iva),
  ];
  if (wrong.some(Boolean)) codes.push("SBX-2-6");
  return codes;
}

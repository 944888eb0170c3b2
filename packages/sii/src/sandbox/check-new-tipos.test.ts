import { describe, expect, test } from "bun:test";
import { exportProblems } from "./check-new-tipos.js";

/** The skeleton of BRIEF-doctypes §3's goods export (signature and CAF left out: these checks read neither). */
const EXPORT = `<DTE version="1.0"><Exportaciones ID="T110F1"><Encabezado><IdDoc><TipoDTE>110</TipoDTE><Folio>1</Folio><FchEmis>2026-06-15</FchEmis><FmaPagExp>1</FmaPagExp></IdDoc>
<Transporte><Aduana><TotBultos>69</TotBultos><TipoBultos><CodTpoBultos>89</CodTpoBultos><CantBultos>69</CantBultos><Marcas>S/M</Marcas></TipoBultos></Aduana></Transporte>
<Totales><TpoMoneda>FRANCO SZ</TpoMoneda><MntExe>112517.5</MntExe><MntTotal>112517.5</MntTotal></Totales>
<OtraMoneda><TpoMoneda>PESO CL</TpoMoneda><TpoCambio>1075</TpoCambio><MntExeOtrMnda>120956313</MntExeOtrMnda><MntTotOtrMnda>120956313</MntTotOtrMnda></OtraMoneda></Encabezado>
<TED version="1.0"><DD><TD>110</TD><MNT>112517.5</MNT></DD></TED></Exportaciones></DTE>`;

const check = (text: string, tipo = 110) => exportProblems({ tipo, text });

describe("the SII's export checks in the sandbox", () => {
  test("a correct export passes; other tipos are not looked at", () => {
    expect(check(EXPORT)).toEqual([]);
    expect(check(EXPORT.replace(/<OtraMoneda>[\s\S]*<\/OtraMoneda>/, ""), 33)).toEqual([]);
  });
  test("no pesos block → HED-3-834 (also a block in another currency)", () => {
    expect(check(EXPORT.replace(/<OtraMoneda>[\s\S]*<\/OtraMoneda>/, ""))).toEqual(["HED-3-834"]);
    expect(check(EXPORT.replace("<TpoMoneda>PESO CL</TpoMoneda>", "<TpoMoneda>DOLAR USA</TpoMoneda>"))).toEqual(["HED-3-834"]);
  });
  test("packages without Marcas → HED-2-804", () => {
    expect(check(EXPORT.replace("<Marcas>S/M</Marcas>", ""))).toEqual(["HED-2-804"]);
  });
  test("a rounded TED amount → TED-3-640; the same amount with trailing zeros is not", () => {
    expect(check(EXPORT.replace("<MNT>112517.5</MNT>", "<MNT>112518</MNT>"))).toEqual(["TED-3-640"]);
    expect(check(EXPORT.replace("<MNT>112517.5</MNT>", "<MNT>112517.50</MNT>"))).toEqual([]);
  });
  test("a sample without payment (FmaPagExp 21) with pesos → HED-1-803", () => {
    expect(check(EXPORT.replace("<FmaPagExp>1</FmaPagExp>", "<FmaPagExp>21</FmaPagExp>"))).toEqual(["HED-1-803"]);
  });
});

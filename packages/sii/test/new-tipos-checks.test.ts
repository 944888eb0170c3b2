/**
 * The sandbox's checks of facturas de compra (46) and liquidaciones-factura (43) beyond the schema
 * (BRIEF-doctypes §1–§2), on skeletons of the brief's worked examples (signature and CAF left out: these checks read
 * neither), and a status query matching an export's own total truncated, as the SII does.
 */
import { describe, expect, test } from "bun:test";
import { DOCUMENT_CODES } from "../src/codes/index.js";
import { liquidationProblems, purchaseProblems } from "../src/sandbox/check-new-tipos.js";

/** LibreDTE's 046_003: 100000 with code 15, all the IVA retained. */
const PURCHASE = `<DTE version="1.0"><Documento ID="T46F1"><Encabezado><IdDoc><TipoDTE>46</TipoDTE><Folio>1</Folio></IdDoc>
<Totales><MntNeto>100000</MntNeto><TasaIVA>19</TasaIVA><IVA>19000</IVA><ImptoReten><TipoImp>15</TipoImp><TasaImp>19</TasaImp><MontoImp>19000</MontoImp></ImptoReten><MntTotal>100000</MntTotal></Totales></Encabezado>
<Detalle><NroLinDet>1</NroLinDet><Retenedor><IndAgente>R</IndAgente></Retenedor><NmbItem>P1</NmbItem><QtyItem>1</QtyItem><PrcItem>100000</PrcItem><CodImpAdic>15</CodImpAdic><MontoItem>100000</MontoItem></Detalle>
</Documento></DTE>`;

/** LibreDTE's 046_004: 2 Kg of wheat at 5000, 4 % retained. */
const WHEAT = `<DTE version="1.0"><Documento ID="T46F2"><Encabezado><Totales><MntNeto>10000</MntNeto><TasaIVA>19</TasaIVA><IVA>1900</IVA>
<ImptoReten><TipoImp>34</TipoImp><TasaImp>4</TasaImp><MontoImp>400</MontoImp></ImptoReten><IVANoRet>1500</IVANoRet><MntTotal>11500</MntTotal></Totales></Encabezado>
<Detalle><NroLinDet>1</NroLinDet><NmbItem>Trigo</NmbItem><QtyItem>2</QtyItem><PrcItem>5000</PrcItem><CodImpAdic>34</CodImpAdic><MontoItem>10000</MontoItem></Detalle></Documento></DTE>`;

/** The SII's certified 43 (S1): 234955 + 55068 exempt + IVA 44641 − commission 4834 and its IVA 918 = 328912. */
const LIQUIDATION = `<DTE version="1.0"><Liquidacion ID="T43F1"><Encabezado><IdDoc><TipoDTE>43</TipoDTE></IdDoc>
<Totales><MntNeto>234955</MntNeto><MntExe>55068</MntExe><TasaIVA>19</TasaIVA><IVA>44641</IVA><Comisiones><ValComNeto>4834</ValComNeto><ValComExe>0</ValComExe><ValComIVA>918</ValComIVA></Comisiones><MntTotal>328912</MntTotal></Totales></Encabezado>
<Detalle><NroLinDet>1</NroLinDet><TpoDocLiq>33</TpoDocLiq><NmbItem>NETO 1515</NmbItem><QtyItem>1</QtyItem><MontoItem>165775</MontoItem></Detalle>
<Detalle><NroLinDet>2</NroLinDet><TpoDocLiq>33</TpoDocLiq><NmbItem>NETO</NmbItem><QtyItem>129</QtyItem><MontoItem>69180</MontoItem></Detalle>
<Detalle><NroLinDet>3</NroLinDet><TpoDocLiq>33</TpoDocLiq><IndExe>1</IndExe><NmbItem>EXENTO</NmbItem><QtyItem>22</QtyItem><MontoItem>55068</MontoItem></Detalle>
<Comisiones><NroLinCom>1</NroLinCom><TipoMovim>C</TipoMovim><Glosa>COMISION</Glosa><ValComNeto>4834</ValComNeto><ValComExe>0</ValComExe><ValComIVA>918</ValComIVA></Comisiones>
</Liquidacion></DTE>`;

describe("factura de compra (46): retentions against the lines", () => {
  test("total and partial retention as the fixtures have them pass; other tipos are not looked at", () => {
    expect(purchaseProblems({ tipo: 46, text: PURCHASE })).toEqual([]);
    expect(purchaseProblems({ tipo: 46, text: WHEAT })).toEqual([]);
    expect(purchaseProblems({ tipo: 33, text: PURCHASE.replace("<CodImpAdic>15</CodImpAdic>", "") })).toEqual([]);
  });
  test("code 15 without its lines marked, or without TasaImp 19 → HED-2-302", () => {
    expect(purchaseProblems({ tipo: 46, text: PURCHASE.replace("<CodImpAdic>15</CodImpAdic>", "") })).toEqual(["HED-2-302"]);
    expect(purchaseProblems({ tipo: 46, text: PURCHASE.replace("<TasaImp>19</TasaImp>", "<TasaImp>10</TasaImp>") })).toEqual(["HED-2-302"]);
  });
  test("a partial retention off its lines, or a line's code without ImptoReten → HED-2-300; a note on a 46 too", () => {
    expect(purchaseProblems({ tipo: 46, text: WHEAT.replace("<MontoImp>400</MontoImp>", "<MontoImp>500</MontoImp>") })).toEqual(["HED-2-300"]);
    expect(purchaseProblems({ tipo: 46, text: WHEAT.replace(/<ImptoReten>.*<\/ImptoReten>/, "") })).toEqual(["HED-2-300"]);
    const note = WHEAT.replace("<MontoImp>400</MontoImp>", "<MontoImp>1</MontoImp>").replace("</Documento>", "<Referencia><NroLinRef>1</NroLinRef><TpoDocRef>46</TpoDocRef></Referencia></Documento>");
    expect(purchaseProblems({ tipo: 61, text: note })).toEqual(["HED-2-300"]);
  });
});

describe("liquidación-factura (43): the No Cuadran reparos", () => {
  test("the SII's certified example passes", () => {
    expect(liquidationProblems({ tipo: 43, text: LIQUIDATION })).toEqual([]);
  });
  test("a line whose amount is not quantity × price → SBX-2-5 Valores de la Línea No Cuadran", () => {
    expect(liquidationProblems({ tipo: 43, text: LIQUIDATION.replace("<QtyItem>1</QtyItem>", "<QtyItem>1</QtyItem><PrcItem>100</PrcItem>") })).toEqual(["SBX-2-5"]);
  });
  test("a total that does not deduct the commissions, a wrong IVA or commission IVA, IVATerc above IVA → SBX-2-6 Encabezado No Cuadran", () => {
    for (const broken of [
      LIQUIDATION.replace("<MntTotal>328912</MntTotal>", "<MntTotal>334664</MntTotal>"),
      LIQUIDATION.replace("<IVA>44641</IVA>", "<IVA>44642</IVA>"),
      LIQUIDATION.replace(/<ValComIVA>918<\/ValComIVA><\/Comisiones>\n<\/Liq/, "<ValComIVA>919</ValComIVA></Comisiones>\n</Liq"),
      LIQUIDATION.replace("<IVA>44641</IVA>", "<IVA>44641</IVA><IVAProp>918</IVAProp><IVATerc>44642</IVATerc>"),
    ]) expect(liquidationProblems({ tipo: 43, text: broken })).toEqual(["SBX-2-6"]);
  });
  test("a 61 repeating a 43's commissions is checked the same way; a classic 61 on a 43 is not", () => {
    const note = LIQUIDATION.replace(/Liquidacion/g, "Documento").replace(/<TpoDocLiq>33<\/TpoDocLiq>/g, "")
      .replace("</Detalle>\n<Comisiones>", "</Detalle>\n<Referencia><NroLinRef>1</NroLinRef><TpoDocRef>43</TpoDocRef></Referencia><Comisiones>");
    expect(liquidationProblems({ tipo: 61, text: note })).toEqual([]);
    expect(liquidationProblems({ tipo: 61, text: note.replace("<MntTotal>328912</MntTotal>", "<MntTotal>334664</MntTotal>") })).toEqual(["SBX-2-6"]);
    expect(liquidationProblems({ tipo: 61, text: note.replace(/<Comisiones>.*?<\/Comisiones>/, "").replace("<MntTotal>328912</MntTotal>", "<MntTotal>1</MntTotal>") })).toEqual([]);
  });
  test("the codes are described, reparos, with their source", () => {
    for (const code of ["HED-2-302", "HED-2-300", "SBX-2-5", "SBX-2-6"]) expect(DOCUMENT_CODES[code]?.fuente?.length ?? 0).toBeGreaterThan(10);
  });
});

/**
 * What the PDF renderer prints for a received DTE: its parties, lines, references and amounts as the XML states them
 * (nothing is recomputed: the issuer's totals are the document's), and its TED for the timbre. The issuer's SII
 * resolution is not in the DTE (it travels in the envelope's carátula), so its line is left out.
 */
import type { DocumentInput, Line, Reference, Tipo } from "../document/types.js";
import type { PrintableDocument } from "../pdf/types.js";
import { childElements, childText, onlyChild } from "../signature/verify-xml.js";
import { parseXmlTree, type XmlElement } from "../signature/xml-tree.js";
import type { AdditionalTaxTotal, LineTotals, Totals } from "../totals/index.js";

const num = (value: string | null | undefined, fallback = 0): number => {
  const n = Number((value ?? "").trim());
  return value != null && value.trim() !== "" && Number.isFinite(n) ? n : fallback;
};
const opt = (value: string | null): string | undefined => (value === null || value === "" ? undefined : value);

function lineOf(el: XmlElement): { line: Line; totals: LineTotals } {
  const t = (name: string) => childText(el, [name]);
  const montoItem = num(t("MontoItem"));
  const descuentoMonto = num(t("DescuentoMonto"));
  const exento = t("IndExe") === "1";
  const line: Line = {
    nombre: t("NmbItem") ?? "",
    cantidad: t("QtyItem") ?? 1,
    precio: t("PrcItem") ?? montoItem + descuentoMonto,
    ...(opt(t("DscItem")) === undefined ? {} : { descripcion: t("DscItem")! }),
    ...(opt(t("UnmdItem")) === undefined ? {} : { unidad: t("UnmdItem")! }),
    ...(opt(t("DescuentoPct")) === undefined ? {} : { descuentoPorcentaje: t("DescuentoPct")! }),
    ...(exento ? { exento } : {}),
  };
  return { line, totals: { montoBruto: montoItem + descuentoMonto, descuentoMonto, montoItem, exento } };
}

function referenceOf(el: XmlElement): Reference {
  const t = (name: string) => childText(el, [name]);
  const tipoDoc = t("TpoDocRef") ?? "";
  const codigo = Number(t("CodRef"));
  return {
    tipoDoc: /^\d+$/.test(tipoDoc) ? Number(tipoDoc) : tipoDoc,
    folio: t("FolioRef") ?? "",
    fecha: t("FchRef") ?? "",
    ...(opt(t("RazonRef")) === undefined ? {} : { razon: t("RazonRef")! }),
    ...(codigo === 1 || codigo === 2 || codigo === 3 ? { codigo } : {}),
  };
}

/** The `Documento` (or `Exportaciones`/`Liquidacion`) element of a `DTE`. */
function documentElement(dte: XmlElement): XmlElement {
  const found = childElements(dte).find((el) => el.localName === "Documento" || el.localName === "Exportaciones" || el.localName === "Liquidacion");
  if (!found) throw new Error("not a DTE: no Documento element");
  return found;
}

/** The PDF input of a received `<DTE>`, given as text. */
export function printableReceived(text: string): PrintableDocument {
  const doc = documentElement(parseXmlTree(text).documentElement);
  const h = (path: string[]) => childText(doc, ["Encabezado", ...path]);
  const detalle = childElements(doc).filter((el) => el.localName === "Detalle").map(lineOf);
  const referencias = childElements(doc).filter((el) => el.localName === "Referencia").map(referenceOf);
  const acteco = childElements(onlyChild(onlyChild(doc, "Encabezado") ?? doc, "Emisor") ?? doc).filter((el) => el.localName === "Acteco").map((el) => num(el.textContent));
  const formaPago = Number(h(["IdDoc", "FmaPago"]));
  const input: DocumentInput = {
    tipo: num(h(["IdDoc", "TipoDTE"])) as Tipo,
    folio: num(h(["IdDoc", "Folio"])),
    fecha: h(["IdDoc", "FchEmis"]) ?? "",
    issuer: {
      rut: h(["Emisor", "RUTEmisor"]) ?? "",
      razonSocial: h(["Emisor", "RznSoc"]) ?? h(["Emisor", "RznSocEmisor"]) ?? "",
      giro: h(["Emisor", "GiroEmis"]) ?? h(["Emisor", "GiroEmisor"]) ?? "",
      acteco,
      direccion: h(["Emisor", "DirOrigen"]) ?? "",
      comuna: h(["Emisor", "CmnaOrigen"]) ?? "",
      ...(opt(h(["Emisor", "CiudadOrigen"])) === undefined ? {} : { ciudad: h(["Emisor", "CiudadOrigen"])! }),
    },
    receiver: {
      rut: h(["Receptor", "RUTRecep"]) ?? "",
      razonSocial: h(["Receptor", "RznSocRecep"]) ?? "",
      ...(opt(h(["Receptor", "GiroRecep"])) === undefined ? {} : { giro: h(["Receptor", "GiroRecep"])! }),
      ...(opt(h(["Receptor", "DirRecep"])) === undefined ? {} : { direccion: h(["Receptor", "DirRecep"])! }),
      ...(opt(h(["Receptor", "CmnaRecep"])) === undefined ? {} : { comuna: h(["Receptor", "CmnaRecep"])! }),
      ...(opt(h(["Receptor", "CiudadRecep"])) === undefined ? {} : { ciudad: h(["Receptor", "CiudadRecep"])! }),
    },
    items: detalle.map((d) => d.line),
    referencias,
    ...(formaPago === 1 || formaPago === 2 || formaPago === 3 ? { formaPago } : {}),
  };
  const totalesEl = onlyChild(onlyChild(doc, "Encabezado") ?? doc, "Totales");
  const impuestos: AdditionalTaxTotal[] = totalesEl === null ? [] : childElements(totalesEl)
    .filter((el) => el.localName === "ImptoReten")
    .map((el) => ({ codigo: num(childText(el, ["TipoImp"])), tasa: childText(el, ["TasaImp"]) ?? "0", base: 0, monto: num(childText(el, ["MontoImp"])) }));
  const totals: Totals = {
    montoNeto: num(h(["Totales", "MntNeto"])),
    montoExento: num(h(["Totales", "MntExe"])),
    tasaIva: num(h(["Totales", "TasaIVA"]), 19),
    montoIva: num(h(["Totales", "IVA"])),
    impuestosAdicionales: impuestos,
    montoTotal: num(h(["Totales", "MntTotal"])),
    descuentoGlobal: null,
    preciosBrutos: h(["IdDoc", "MntBruto"]) === "1",
    lines: detalle.map((d) => d.totals),
  };
  const ted = /<TED[\s>][\s\S]*?<\/TED>/.exec(text)?.[0]?.replace(/>\s+</g, "><") ?? null;
  return { input, totals, ted, resolution: null };
}

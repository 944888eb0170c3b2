/** What a received DTE says (parties, amounts, lines, references), read from its signed element. */
import { childElements, childText, onlyChild } from "../signature/verify-xml.js";
import type { XmlElement } from "../signature/xml-tree.js";

export interface ReceivedLine {
  nombre: string;
  cantidad: number | null;
  precio: number | null;
  monto: number;
}

export interface ReceivedReference {
  tipo: string;
  folio: string;
  fecha: string | null;
  codigo: number | null;
  razon: string | null;
}

export interface ReceivedDocumentFields {
  tipo: number;
  folio: number;
  fecha: string;
  emisor: { rut: string; razonSocial: string; giro: string | null };
  receptor: { rut: string; razonSocial: string | null };
  montoNeto: number;
  montoExento: number;
  montoIva: number;
  montoTotal: number;
  items: ReceivedLine[];
  referencias: ReceivedReference[];
}

const num = (value: string | null): number | null => {
  if (value === null || value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

/**
 * The fields of a `Documento` (or `Exportaciones`/`Liquidacion`), leniently: absent amounts read as 0, absent
 * texts as empty. Emisor names are `RznSoc` (or `RznSocEmisor` of boletas), giro `GiroEmis`.
 */
export function readReceivedDocument(signed: XmlElement): ReceivedDocumentFields {
  const text = (path: string[]): string => (childText(signed, path) ?? "").trim();
  const encabezado = onlyChild(signed, "Encabezado");
  const items: ReceivedLine[] = [];
  const referencias: ReceivedReference[] = [];
  for (const el of childElements(signed)) {
    const t = (name: string): string | null => childText(el, [name])?.trim() ?? null;
    if (el.localName === "Detalle") {
      items.push({ nombre: t("NmbItem") ?? "", cantidad: num(t("QtyItem")), precio: num(t("PrcItem")), monto: num(t("MontoItem")) ?? 0 });
    } else if (el.localName === "Referencia") {
      referencias.push({ tipo: t("TpoDocRef") ?? "", folio: t("FolioRef") ?? "", fecha: t("FchRef"), codigo: num(t("CodRef")), razon: t("RazonRef") });
    }
  }
  return {
    tipo: Number(text(["Encabezado", "IdDoc", "TipoDTE"])) || 0,
    folio: Number(text(["Encabezado", "IdDoc", "Folio"])) || 0,
    fecha: text(["Encabezado", "IdDoc", "FchEmis"]),
    emisor: {
      rut: text(["Encabezado", "Emisor", "RUTEmisor"]),
      razonSocial: text(["Encabezado", "Emisor", "RznSoc"]) || text(["Encabezado", "Emisor", "RznSocEmisor"]),
      giro: (text(["Encabezado", "Emisor", "GiroEmis"]) || text(["Encabezado", "Emisor", "GiroEmisor"])) || null,
    },
    receptor: { rut: text(["Encabezado", "Receptor", "RUTRecep"]), razonSocial: text(["Encabezado", "Receptor", "RznSocRecep"]) || null },
    montoNeto: num(text(["Encabezado", "Totales", "MntNeto"])) ?? 0,
    montoExento: num(text(["Encabezado", "Totales", "MntExe"])) ?? 0,
    montoIva: num(text(["Encabezado", "Totales", "IVA"])) ?? 0,
    montoTotal: num(text(["Encabezado", "Totales", "MntTotal"])) ?? 0,
    items: encabezado === null ? [] : items,
    referencias,
  };
}

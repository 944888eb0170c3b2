/**
 * The SII's result mail (`RESULTADO_ENVIO`, no namespace, `RespSII_v10.xsd`; BRIEF-intercambio §5), read into plain
 * data: which envelope (issuer, TRACKID), its state, the envelope's errors and each reviewed document's lines
 * (`(DTE-3-101) Folio …`). Safe XML only (no DTD). The mail is not signed: the caller decides what it may change.
 */
import { childElements, childText, decodeXml, messageOf } from "../signature/verify-xml.js";
import { parseXmlTree, type XmlElement } from "../signature/xml-tree.js";

export interface SiiResultRevision {
  tipo: number;
  folio: number;
  /** `REVISIONDTE/ESTADO`, e.g. `RCH - DTE Rechazado`. */
  estado: string;
  detalles: string[];
}

export interface SiiResult {
  rutEmisor: string;
  rutEnvia: string;
  /** As written in the mail (it may lack the leading zeros DTEUpload returned). */
  trackId: string;
  /** `IDENTIFICACION/ESTADO`, e.g. `EPR - Envio Procesado`. */
  estado: string;
  /** `ERRORENVIO/DETERRENVIO` lines. */
  erroresEnvio: string[];
  revisiones: SiiResultRevision[];
}

const named = (parent: XmlElement, name: string): XmlElement[] => childElements(parent).filter((e) => e.localName === name);
const textOf = (e: XmlElement): string => (e.textContent ?? "").trim();

/**
 * Reads a `RESULTADO_ENVIO`; `{ ok: false }` for unsafe or malformed XML or another root.
 *
 * @example
 * const r = readSiiResult(bytes);
 * if (r.ok) r.result.revisiones.map((d) => [d.tipo, d.folio, d.detalles]);
 */
export function readSiiResult(xml: string | Uint8Array): { ok: true; result: SiiResult } | { ok: false; message: string } {
  let root: XmlElement;
  try {
    root = parseXmlTree(decodeXml(xml)).documentElement;
  } catch (e) {
    return { ok: false, message: `not well-formed or unsafe XML: ${messageOf(e)}` };
  }
  if (root.localName !== "RESULTADO_ENVIO" || root.namespaceURI !== null) return { ok: false, message: `root element is ${root.localName}, not RESULTADO_ENVIO` };
  const id = (name: string) => childText(root, ["IDENTIFICACION", name]) ?? "";
  return {
    ok: true,
    result: {
      rutEmisor: id("RUTEMISOR").toUpperCase(),
      rutEnvia: id("RUTENVIA").toUpperCase(),
      trackId: id("TRACKID"),
      estado: id("ESTADO"),
      erroresEnvio: named(root, "ERRORENVIO").flatMap((e) => named(e, "DETERRENVIO")).map(textOf),
      revisiones: named(root, "REVISIONENVIO").flatMap((e) => named(e, "REVISIONDTE")).map((r) => ({
        tipo: Number(childText(r, ["TIPODTE"])),
        folio: Number(childText(r, ["FOLIO"])),
        estado: childText(r, ["ESTADO"]) ?? "",
        detalles: named(r, "DETALLE").map(textOf),
      })),
    },
  };
}

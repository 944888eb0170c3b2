import { elementText, elementTexts, findElements, firstElement } from "../protocol/xml-text.js";

/** The carátula of an envelope. */
export interface Caratula {
  rutEmisor: string | null;
  rutEnvia: string | null;
  rutReceptor: string | null;
  /** `FchResol` and `NroResol` as written (the resolution that authorises the issuer in this environment). */
  fchResol: string | null;
  nroResol: string | null;
  /** `TmstFirmaEnv` as written. */
  tmstFirmaEnv: string | null;
  subtotales: Array<{ tipo: number; cantidad: number }>;
}

/** One `Referencia` of a DTE (notes reference the document they modify). */
export interface DteReference {
  /** `TpoDocRef` as written (a tipo code, or text such as `SET`). */
  tipo: string;
  /** `FolioRef` as written. */
  folio: string;
  /** `CodRef` (1 annuls, 2 corrects text, 3 corrects amounts), or null when absent. */
  codRef: number | null;
  /** `RUTOtr`: the referenced document is another issuer's. */
  rutOtr: string | null;
  /** `FchRef` as written. */
  fecha: string;
}

/** The fields of one DTE the sandbox checks. */
export interface DteFacts {
  /** The DTE text cut out of the envelope exactly as it stands. */
  text: string;
  tipo: number;
  folio: number;
  fchEmis: string;
  rutEmisor: string;
  /** The issuer's name: `RznSoc` (`RznSocEmisor` on boletas), "" when absent. */
  rznSoc: string;
  /** `Acteco` codes as written (absent on boletas). */
  acteco: string[];
  rutRecep: string;
  rznSocRecep: string;
  mntTotal: number;
  /** The TED's `<CAF version="1.0">…</CAF>` text, or null. */
  cafXml: string | null;
  /** The DD's data without the timestamp: "same data" means the same fingerprint. */
  fingerprint: string;
  /** Its `Referencia` elements, in order. */
  references: DteReference[];
  /** `Documento/TmstFirma`: when the document was signed (the SII judges the CAF's expiry by it). */
  tmstFirma: string;
}

/** Root, carátula and DTEs of an envelope text. */
export interface EnvelopeFacts {
  root: "EnvioDTE" | "EnvioBOLETA" | null;
  caratula: Caratula;
  dtes: DteFacts[];
}

const text = (xml: string, name: string) => elementText(xml, name) ?? "";

function readReference(xml: string): DteReference {
  const codRef = text(xml, "CodRef");
  return {
    tipo: text(xml, "TpoDocRef"), folio: text(xml, "FolioRef"), codRef: /^\d+$/.test(codRef) ? Number(codRef) : null,
    rutOtr: elementText(xml, "RUTOtr"), fecha: text(xml, "FchRef"),
  };
}

function readDte(dteText: string): DteFacts {
  const encabezado = firstElement(dteText, "Encabezado")?.inner ?? "";
  const idDoc = firstElement(encabezado, "IdDoc")?.inner ?? "";
  const receptor = firstElement(encabezado, "Receptor")?.inner ?? "";
  const emisor = firstElement(encabezado, "Emisor")?.inner ?? "";
  const ted = firstElement(dteText, "TED")?.inner ?? "";
  const dd = firstElement(ted, "DD")?.inner ?? "";
  const caf = /<(?:[\w.-]+:)?CAF\b[\s\S]*?<\/(?:[\w.-]+:)?CAF>/.exec(ted)?.[0] ?? null;
  return {
    text: dteText,
    tipo: Number(text(idDoc, "TipoDTE")),
    folio: Number(text(idDoc, "Folio")),
    fchEmis: text(idDoc, "FchEmis"),
    rutEmisor: text(emisor, "RUTEmisor"),
    rznSoc: elementText(emisor, "RznSoc") ?? elementText(emisor, "RznSocEmisor") ?? "",
    acteco: elementTexts(emisor, "Acteco"),
    rutRecep: text(receptor, "RUTRecep"),
    rznSocRecep: text(receptor, "RznSocRecep"),
    mntTotal: Number(text(firstElement(encabezado, "Totales")?.inner ?? "", "MntTotal")),
    cafXml: caf,
    fingerprint: ["RE", "TD", "F", "FE", "RR", "RSR", "MNT", "IT1"].map((n) => text(dd, n)).join("|"),
    references: findElements(dteText, "Referencia").map((r) => readReference(r.inner)),
    tmstFirma: text(dteText, "TmstFirma"),
  };
}

/**
 * Reads what the sandbox needs from an envelope (flat regex reads; XSD and signatures are checked elsewhere).
 *
 * @example
 * readEnvelope(text).dtes.map((d) => d.folio);
 */
export function readEnvelope(xml: string): EnvelopeFacts {
  const rootName = /<(?:[\w.-]+:)?(EnvioDTE|EnvioBOLETA)[\s>]/.exec(xml)?.[1];
  const caratulaXml = firstElement(xml, "Caratula")?.inner ?? "";
  const subtotales = findElements(caratulaXml, "SubTotDTE").map((s) => ({
    tipo: Number(text(s.inner, "TpoDTE")),
    cantidad: Number(text(s.inner, "NroDTE")),
  }));
  const dtes = [...xml.matchAll(/<(?:[\w.-]+:)?DTE[\s>][\s\S]*?<\/(?:[\w.-]+:)?DTE>/g)].map((m) => readDte(m[0]));
  return {
    root: rootName === "EnvioDTE" || rootName === "EnvioBOLETA" ? rootName : null,
    caratula: {
      rutEmisor: elementText(caratulaXml, "RutEmisor"),
      rutEnvia: elementText(caratulaXml, "RutEnvia"),
      rutReceptor: elementText(caratulaXml, "RutReceptor"),
      fchResol: elementText(caratulaXml, "FchResol"),
      nroResol: elementText(caratulaXml, "NroResol"),
      tmstFirmaEnv: elementText(caratulaXml, "TmstFirmaEnv"),
      subtotales,
    },
    dtes,
  };
}

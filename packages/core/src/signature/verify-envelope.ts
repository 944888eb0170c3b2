import type { DocumentVerification, VerifyResult } from "./verify-result.js";
import { verifyDteText, verifyDteTree } from "./verify-dte.js";
import { DSIG_NS, verifySignatureOver, type VerifyOptions } from "./verify-xmldsig.js";
import { childElements, decodeXml, messageOf } from "./verify-xml.js";
import { parseXmlTree, XML_NS, type XmlElement } from "./xml-tree.js";

const ROOTS = ["EnvioDTE", "EnvioBOLETA"];
/** Markup tokens: comments, CDATA, PIs, declarations, then tags (attribute values may contain `>`). */
const TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<![^>]*>|<(\/?)([^\s/>]+)(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*(\/?)>/g;

/**
 * The raw text of every `<DTE …>…</DTE>` that is a child of the root's `SetDTE` (depth 3), cut out of the
 * envelope exactly as it stands. Comments and CDATA are skipped, so they cannot smuggle a DTE in.
 */
export function cutOutDtes(text: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  let start = -1;
  for (const m of text.matchAll(TOKEN)) {
    const name = m[2];
    if (name === undefined) continue; // comment, CDATA, PI, declaration
    const local = name.includes(":") ? name.slice(name.indexOf(":") + 1) : name;
    if (m[1] === "/") {
      if (local === "DTE" && stack.length === 3 && start >= 0) {
        out.push(text.slice(start, (m.index ?? 0) + m[0].length));
        start = -1;
      }
      stack.pop();
    } else {
      const isDteChild = local === "DTE" && stack.length === 2 && stack[1] === "SetDTE";
      if (m[3] === "/") {
        if (isDteChild) out.push(m[0]);
        continue;
      }
      if (isDteChild) start = m.index ?? 0;
      stack.push(local);
    }
  }
  return out;
}

/**
 * Whether a DTE of the envelope's parse reads the same as its text cut out and parsed alone: it declares its default
 * namespace itself, every prefix inside it is declared inside it, and no `xml:*` attribute of an ancestor would be
 * inherited. Then only its position differs, and it can be verified detached (`verifyDetached`).
 */
function standsAlone(dte: XmlElement): boolean {
  if (dte.declared?.has("") !== true) return false;
  for (let a = dte.parentNode; a !== null; a = a.parentNode) if (a.attributes.some((attr) => attr.namespaceURI === XML_NS)) return false;
  const declaredWithin = (el: XmlElement, prefix: string): boolean => {
    for (let e: XmlElement | null = el; e !== null; e = e === dte ? null : e.parentNode) if (e.declared?.has(prefix)) return true;
    return false;
  };
  const walk = (el: XmlElement): boolean => {
    if (el.prefix !== null && el.prefix !== "xml" && !declaredWithin(el, el.prefix)) return false;
    for (const attr of el.attributes) {
      if (attr.prefix !== null && attr.prefix !== "xml" && attr.prefix !== "xmlns" && !declaredWithin(el, attr.prefix)) return false;
    }
    for (let n = el.firstChild; n !== null; n = n.nextSibling) if (n.nodeType === 1 && !walk(n)) return false;
    return true;
  };
  return walk(dte);
}

/** `verifyDteTree` of a DTE of the envelope's parse, detached from it for the time (as its own document). */
function verifyDetached(dte: XmlElement, textOf: () => string, options: VerifyOptions): DocumentVerification {
  const parent = dte.parentNode;
  dte.parentNode = null;
  try {
    return verifyDteTree({ documentElement: dte }, textOf, options);
  } finally {
    dte.parentNode = parent;
  }
}

/**
 * Verifies an envelope (`EnvioDTE` or `EnvioBOLETA`) the SII way: the `SetDTE` signature in the context of
 * the whole envelope (inherited namespace declarations count), then each `<DTE>` cut out of the raw text as a
 * stand-alone document (its own namespace declarations only) with its TED against the CAF key inside it.
 * Per-document results carry ID, tipo and folio. Pass the file's bytes or its decoded text. Also checks the
 * shape (root > SetDTE + Signature; SetDTE > Caratula + DTE…), unique IDs and tipo/folio pairs.
 *
 * @example
 * ```ts
 * const result = verifyEnvelope(readFileSync("EnvioDTE.xml"));
 * if (!result.valid) console.error(result.errors);
 * result.documents?.map((d) => `${d.tipo}/${d.folio}: ${d.signature && d.ted}`);
 * ```
 */
export function verifyEnvelope(xml: string | Uint8Array, options: VerifyOptions = {}): VerifyResult {
  const errors: string[] = [];
  let text: string;
  let doc;
  try {
    text = decodeXml(xml);
    doc = parseXmlTree(text);
  } catch (e) {
    return { valid: false, errors: [messageOf(e)], documents: [] };
  }
  const root = doc.documentElement;
  if (!ROOTS.includes(root.localName)) {
    return { valid: false, errors: ["root element is not EnvioDTE or EnvioBOLETA"], documents: [] };
  }
  const [setDte, signature, ...rest] = childElements(root);
  if (setDte === undefined || signature === undefined || rest.length > 0 || setDte.localName !== "SetDTE" ||
      setDte.namespaceURI !== root.namespaceURI || signature.localName !== "Signature" ||
      signature.namespaceURI !== DSIG_NS) {
    return { valid: false, errors: [`${root.localName} must contain exactly SetDTE followed by its Signature`], documents: [] };
  }
  const envelopeWarnings: string[] = [];
  errors.push(
    ...verifySignatureOver(doc, text, signature, setDte, envelopeWarnings, options).map((e) => `envelope signature: ${e}`),
  );

  const [caratula, ...dteElements] = childElements(setDte);
  if (caratula?.localName !== "Caratula" || dteElements.length === 0 || dteElements.some((e) => e.localName !== "DTE")) {
    errors.push("SetDTE must contain a Caratula followed by one or more DTE");
  }
  let documents: DocumentVerification[];
  if (options.crossCheck === false && dteElements.length > 0 && dteElements.every((dte) => standsAlone(dte))) {
    // Each DTE's subtree of the envelope's parse is what its cut-out text would parse to (`standsAlone`):
    // verified detached, without parsing it again. Its text is cut out only if a hint needs it.
    let cut: string[] | null = null;
    documents = dteElements.map((dte, i) => verifyDetached(dte, () => (cut ??= cutOutDtes(text))[i] ?? "", options));
  } else {
    const texts = cutOutDtes(text);
    if (texts.length !== dteElements.length) {
      errors.push(`found ${dteElements.length} DTE elements but cut ${texts.length} out of the text`);
    }
    documents = texts.map((dteText) => verifyDteText(dteText, options));
  }
  const warnings: string[] = envelopeWarnings.map((w) => `envelope signature: ${w}`);
  const seen = new Set<string>();
  documents.forEach((d, i) => {
    const dte = dteElements[i];
    const expectedId = (dte ? childElements(dte)[0]?.getAttribute("ID") : null) ?? null; // Documento, Liquidacion, Exportaciones
    if (expectedId !== d.id) errors.push(`DTE #${i + 1}: cut-out text does not match the parsed envelope`);
    const key = `${d.tipo}/${d.folio}`;
    if (seen.has(key) || seen.has(d.id)) errors.push(`DTE ${d.id} (${key}) appears more than once`);
    seen.add(key).add(d.id);
    errors.push(...d.errors.map((e) => `DTE ${d.id || `#${i + 1}`}: ${e}`));
    warnings.push(...(d.warnings ?? []).map((w) => `DTE ${d.id}: ${w}`));
  });
  const result: VerifyResult = { valid: errors.length === 0, errors, documents };
  if (warnings.length > 0) result.warnings = warnings;
  return result;
}

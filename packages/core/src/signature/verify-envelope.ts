import type { DocumentVerification, VerifyResult } from "./verify-result.js";
import { verifyDteText } from "./verify-dte.js";
import { DSIG_NS, verifySignatureOver, type VerifyOptions } from "./verify-xmldsig.js";
import { childElements, decodeXml, messageOf } from "./verify-xml.js";
import { parseXmlTree } from "./xml-tree.js";

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
  const texts = cutOutDtes(text);
  if (texts.length !== dteElements.length) {
    errors.push(`found ${dteElements.length} DTE elements but cut ${texts.length} out of the text`);
  }
  const documents: DocumentVerification[] = texts.map((dteText) => verifyDteText(dteText, options));
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

import type { DocumentVerification, VerifyResult } from "./verify-result.js";
import { verifyTedElement } from "./verify-ted.js";
import { DSIG_NS, verifySignatureOver, type VerifyOptions } from "./verify-xmldsig.js";
import { childElements, childText, decodeXml, messageOf, onlyChild } from "./verify-xml.js";
import { parseXmlTree, type XmlDocument, type XmlElement } from "./xml-tree.js";

const SII_NS = "http://www.sii.cl/SiiDte";
const SIGNED_CHILDREN = ["Documento", "Exportaciones", "Liquidacion"];

/** DD fields that must repeat the document's own values (BRIEF §5). */
const TED_BINDINGS: Array<[string, string[]]> = [
  ["RE", ["Encabezado", "Emisor", "RUTEmisor"]],
  ["TD", ["Encabezado", "IdDoc", "TipoDTE"]],
  ["F", ["Encabezado", "IdDoc", "Folio"]],
  ["FE", ["Encabezado", "IdDoc", "FchEmis"]],
  ["RR", ["Encabezado", "Receptor", "RUTRecep"]],
  ["MNT", ["Encabezado", "Totales", "MntTotal"]],
];

function tedErrors(documento: XmlElement): string[] {
  const ted = onlyChild(documento, "TED");
  if (ted === null) return ["TED: Documento has no (single) TED"];
  const errors = verifyTedElement(ted);
  const dd = onlyChild(ted, "DD");
  if (dd === null) return errors;
  for (const [field, path] of TED_BINDINGS) {
    const inDd = childText(dd, [field]);
    const inDoc = childText(documento, path);
    const same = field === "MNT" || field === "F" ? Number(inDd) === Number(inDoc) : inDd === inDoc;
    if (!same || inDd === null) errors.push(`TED: DD/${field} ${JSON.stringify(inDd)} ≠ ${path.join("/")} ${JSON.stringify(inDoc)}`);
  }
  return errors;
}

/**
 * Diagnostic only: whether the digest would match with the root's SiiDte default namespace toggled, i.e. the
 * text was re-namespaced after signing (BRIEF §6.1). Never makes the document valid.
 */
function namespaceHint(text: string, namespaced: boolean): string | null {
  const toggled = namespaced
    ? text.replace(/<DTE(\s[^>]*?)?\s+xmlns="http:\/\/www\.sii\.cl\/SiiDte"/, "<DTE$1")
    : text.replace(/<DTE(?=[\s>])/, `<DTE xmlns="${SII_NS}"`);
  if (toggled === text) return null;
  const retry = verifyDteText(toggled, { requireCertificateKey: false }, false);
  if (!retry.signature) return null;
  return namespaced
    ? "hint: the signature verifies without xmlns=\"http://www.sii.cl/SiiDte\" on DTE: the namespace was added after signing"
    : "hint: the signature verifies with xmlns=\"http://www.sii.cl/SiiDte\" on DTE: it was signed namespaced and the namespace was stripped";
}

/**
 * Verifies one stand-alone DTE text (the document as its text stands, its own namespace declarations only):
 * shape `DTE > (Documento|Exportaciones|Liquidacion, Signature)`, the signature (see `verifySignatureOver`) and
 * the TED. Internal, shared with `verifyEnvelope`.
 */
export function verifyDteText(text: string, options: VerifyOptions = {}, hints = true): DocumentVerification {
  let doc: XmlDocument;
  try {
    doc = parseXmlTree(text);
  } catch (e) {
    return { id: "", tipo: 0, folio: 0, signature: false, ted: false, errors: [messageOf(e)] };
  }
  return verifyDteTree(doc, () => text, options, hints);
}

/**
 * `verifyDteText` of a DTE already parsed: `doc` is the stand-alone DTE (its root has no parent), `textOf` gives its
 * text when it is needed (the second opinion's own parse, the namespace hint).
 */
export function verifyDteTree(doc: XmlDocument, textOf: () => string, options: VerifyOptions = {}, hints = true): DocumentVerification {
  const result: DocumentVerification = { id: "", tipo: 0, folio: 0, signature: false, ted: false, errors: [] };
  const root = doc.documentElement;
  if (root.localName !== "DTE" || (root.namespaceURI !== null && root.namespaceURI !== SII_NS)) {
    result.errors.push("root element is not DTE (SiiDte namespace or none)");
    return result;
  }
  const children = childElements(root);
  const [signed, signature, ...rest] = children;
  if (signed === undefined || signature === undefined ||
      !SIGNED_CHILDREN.includes(signed.localName ?? "") || signed.namespaceURI !== root.namespaceURI ||
      signature.localName !== "Signature" || signature.namespaceURI !== DSIG_NS) {
    result.errors.push("DTE must contain exactly a Documento (or Exportaciones/Liquidacion) followed by its Signature");
    return result;
  }
  for (const extra of rest) {
    // Vendor additions after the Signature (e.g. DocPersonalizado in a real DTE) are unsigned: tolerated, never read.
    if (SIGNED_CHILDREN.includes(extra.localName ?? "") || extra.localName === "Signature" || extra.localName === "TED") {
      result.errors.push(`DTE: unexpected second ${extra.localName ?? "?"} after the Signature`);
      return result;
    }
    (result.warnings ??= []).push(`DTE: unsigned element ${extra.localName ?? "?"} after the Signature ignored`);
  }
  result.id = signed.getAttribute("ID") ?? "";
  result.tipo = Number(childText(signed, ["Encabezado", "IdDoc", "TipoDTE"]) ?? 0) || 0;
  result.folio = Number(childText(signed, ["Encabezado", "IdDoc", "Folio"]) ?? 0) || 0;
  const warnings: string[] = [];
  const signatureErrors = verifySignatureOver(doc, options.crossCheck === false ? "" : textOf(), signature, signed, warnings, options);
  if (warnings.length > 0) (result.warnings ??= []).push(...warnings.map((w) => `signature: ${w}`));
  const ted = tedErrors(signed);
  result.signature = signatureErrors.length === 0;
  result.ted = ted.length === 0;
  result.errors.push(...signatureErrors.map((e) => `signature: ${e}`), ...ted);
  if (hints && signatureErrors.some((e) => e.startsWith("digest mismatch"))) {
    const hint = namespaceHint(textOf(), root.namespaceURI === SII_NS);
    if (hint !== null) result.errors.push(hint);
  }
  return result;
}

/**
 * Verifies a signed DTE the way the SII does: the DTE as an independent document, exactly as its text stands
 * (only its own namespace declarations count — SII-accepted DTEs exist both with `xmlns="http://www.sii.cl/SiiDte"`
 * and with no namespace at all, BRIEF §6.1), plus its TED against the CAF key inside it.
 * Pass the file's bytes (ISO-8859-1 is decoded byte for byte) or its decoded text. Strict by default: KeyInfo's
 * RSAKeyValue must be the certificate's key (see {@link VerifyOptions}). Certificate trust (chain, validity,
 * holder) is not judged here.
 *
 * @example
 * ```ts
 * const result = verifyDte(readFileSync("DTE-33-1.xml"));
 * // { valid: true, errors: [], documents: [{ id: "T33F1", tipo: 33, folio: 1, signature: true, ted: true, errors: [] }] }
 * ```
 */
export function verifyDte(xml: string | Uint8Array, options: VerifyOptions = {}): VerifyResult {
  let text: string;
  try {
    text = decodeXml(xml);
  } catch (e) {
    return { valid: false, errors: [`undecodable XML: ${messageOf(e)}`], documents: [] };
  }
  const document = verifyDteText(text, options);
  const result: VerifyResult = { valid: document.errors.length === 0, errors: [...document.errors], documents: [document] };
  if (document.warnings !== undefined) result.warnings = [...document.warnings];
  return result;
}

/** `SignedInfo` of the SII profile, written in file form and in its C14N form for a given namespace context. */
import { escapeC14nAttr } from "../xml/escape.js";
import { C14N_ALGORITHM, DSIG_NS, RSA_SHA1_ALGORITHM, SHA1_ALGORITHM } from "../xml/constants.js";
import type { NamespaceMap } from "./canonical.js";

export interface SignedInfoOptions {
  /** `Reference/@URI`: `#T33F1`, `#SetDoc`, or `""` for the whole document. */
  uri: string;
  /** The one `Transform` (C14N for DTE and envelope, enveloped-signature for the token seed). */
  transform: string;
  /** Base64 SHA-1 of the canonical referenced data. */
  digest: string;
  /**
   * Prefixed namespace bindings in scope where `Signature` will live, besides xmldsig's default one (e.g. `xsi`
   * declared on an envelope root): inclusive C14N renders them on `SignedInfo`.
   */
  context?: NamespaceMap;
}

export interface RenderedSignedInfo {
  file: string;
  /** C14N with `SignedInfo` as the apex (what `SignatureValue` signs). */
  canonical: string;
  /** C14N inside a canonical `Signature` that already rendered every namespace in scope: no declarations. */
  nested: string;
}

/**
 * Renders `SignedInfo`. The file form uses empty-element tags like every SII sample; the canonical form expands
 * them and declares every in-scope namespace on the apex (default xmldsig first, then prefixes in order).
 *
 * @example
 * renderSignedInfo({ uri: "#SetDoc", transform: C14N_ALGORITHM, digest, context: { xsi: XSI_NS } }).canonical
 * // '<SignedInfo xmlns="http://www.w3.org/2000/09/xmldsig#" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">…'
 */
export function renderSignedInfo({ uri, transform, digest, context = {} }: SignedInfoOptions): RenderedSignedInfo {
  const empty = (tag: string, algorithm: string) => ({
    file: `<${tag} Algorithm="${algorithm}"/>`,
    canonical: `<${tag} Algorithm="${algorithm}"></${tag}>`,
  });
  const c14n = empty("CanonicalizationMethod", C14N_ALGORITHM);
  const method = empty("SignatureMethod", RSA_SHA1_ALGORITHM);
  const tf = empty("Transform", transform);
  const dm = empty("DigestMethod", SHA1_ALGORITHM);
  const ref = `<Reference URI="${escapeC14nAttr(uri)}">`;
  const tail = `<DigestValue>${digest}</DigestValue></Reference></SignedInfo>`;
  let ns = ` xmlns="${DSIG_NS}"`;
  for (const prefix of Object.keys(context).filter((p) => p !== "").sort()) {
    ns += ` xmlns:${prefix}="${escapeC14nAttr(context[prefix] ?? "")}"`;
  }
  const content = `${c14n.canonical}${method.canonical}${ref}<Transforms>${tf.canonical}</Transforms>${dm.canonical}${tail}`;
  return {
    file: `<SignedInfo>${c14n.file}${method.file}${ref}<Transforms>${tf.file}</Transforms>${dm.file}${tail}`,
    canonical: `<SignedInfo${ns}>${content}`,
    nested: `<SignedInfo>${content}`,
  };
}

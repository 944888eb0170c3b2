/**
 * Strict check of one SII-profile XMLDSig signature over one element (BRIEF §6): the shared core of
 * `verifyDte` and `verifyEnvelope`. Internal.
 */
import { createHash, createPublicKey, verify as rsaVerify, type KeyObject } from "node:crypto";
import { DOMParser, type Element as DomElement } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";
import { canonicalizeExclusive } from "./c14n-exclusive.js";
import { canonicalizeInclusive, canonicalizeWithoutInherited } from "./c14n-verify.js";
import { cachedKey } from "./key-cache.js";
import { childElements, descendantsNamed, elementsWithId, messageOf, onlyChild } from "./verify-xml.js";
import type { XmlDocument, XmlElement } from "./xml-tree.js";

export const DSIG_NS = "http://www.w3.org/2000/09/xmldsig#";
const C14N = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315";
const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
const RSA_SHA1 = "http://www.w3.org/2000/09/xmldsig#rsa-sha1";
const SHA1 = "http://www.w3.org/2000/09/xmldsig#sha1";

const b64 = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ""), "base64");
/** Big-endian unsigned integer bytes without leading zeros, as base64url (JWK form). */
const intB64url = (bytes: Buffer): string => {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  return bytes.subarray(i).toString("base64url");
};

/** The dsig child `name` of `parent` (exactly one), else an error is pushed and null returned. */
function dsigChild(parent: XmlElement, name: string, errors: string[]): XmlElement | null {
  const el = onlyChild(parent, name);
  if (el === null || el.namespaceURI !== DSIG_NS) {
    errors.push(`${parent.localName}: expected exactly one ${name}`);
    return null;
  }
  return el;
}

function algorithmOf(el: XmlElement | null): string | null {
  return el?.getAttribute("Algorithm") ?? null;
}

/** Element-child positions from the root down to `el`. */
function pathOf(el: XmlElement): number[] {
  const path: number[] = [];
  for (let e = el; e.parentNode !== null; e = e.parentNode) path.unshift(childElements(e.parentNode).indexOf(e));
  return path;
}

/**
 * The same element in xmldom's parse of the same text, for xml-crypto (its own parse, so the second opinion shares
 * nothing with ours but the text). Throws when xmldom's tree differs from ours there.
 */
function xmldomTwin(text: string, el: XmlElement): DomElement {
  let node = new DOMParser({ onError: () => {} }).parseFromString(text, "text/xml").documentElement;
  for (const index of pathOf(el)) {
    let found: DomElement | null = null;
    let i = 0;
    for (let n = node?.firstChild ?? null; n !== null && found === null; n = n.nextSibling) {
      if (n.nodeType === 1 && i++ === index) found = n as DomElement;
    }
    node = found;
  }
  if (node === null || node.localName !== el.localName || node.namespaceURI !== el.namespaceURI) throw new Error("xmldom reads the document differently");
  return node;
}

/** Options of the verifiers. */
export interface VerifyOptions {
  /**
   * Require KeyInfo's `RSAKeyValue` to be the `X509Certificate`'s key (default `true`). With `false` a mismatch
   * is only a warning and the signature is checked with `RSAKeyValue` — needed for the SII's own official example
   * F60T33, whose RSAKeyValue is not its certificate's key. Never relax this for documents you accept.
   */
  requireCertificateKey?: boolean;
  /**
   * Also check every signature with xml-crypto, a second implementation of C14N and XMLDSig (default `true`).
   * It re-parses the signed text, so it is most of the cost of verifying an envelope; `false` keeps this
   * module's own checks (its own canonicalizer, independent of the signer's), e.g. for a high-volume receiver.
   */
  crossCheck?: boolean;
  /**
   * How the signer canonicalized the signed element (BRIEF-intercambio §4.2; default `inclusive`, the SII's
   * profile). `exclusive`: Exclusive C14N, declared as such (`xml-exc-c14n#`) or not; SignedInfo inclusive first,
   * exclusive as fallback. `without_inherited`: inclusive C14N of the element as if it had no ancestors. Only for
   * received documents the SII accepted; xml-crypto's second opinion is asked for `inclusive` only.
   */
  canonicalization?: "inclusive" | "exclusive" | "without_inherited";
}

const certificateKeys = new Map<string, { key: KeyObject; jwk: JsonWebKey }>();

/** The public key of a base64 DER certificate (whitespace removed) and its JWK form; throws when unreadable. */
function certificateKey(body: string): { key: KeyObject; jwk: JsonWebKey } {
  return cachedKey(certificateKeys, body, () => {
    const pem = `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, "$1\n")}\n-----END CERTIFICATE-----\n`;
    const key = createPublicKey(pem);
    return { key, jwk: key.export({ format: "jwk" }) };
  });
}

/**
 * The key to verify with: the certificate's, after checking that KeyInfo's RSAKeyValue is that same key
 * (or RSAKeyValue with a warning when `strict` is false); null on failure.
 */
function keyFromKeyInfo(signature: XmlElement, errors: string[], warnings: string[], strict: boolean): KeyObject | null {
  const keyInfo = dsigChild(signature, "KeyInfo", errors);
  if (keyInfo === null) return null;
  const rsa = onlyChild(onlyChild(keyInfo, "KeyValue") ?? keyInfo, "RSAKeyValue");
  const modulus = rsa === null ? null : onlyChild(rsa, "Modulus");
  const exponent = rsa === null ? null : onlyChild(rsa, "Exponent");
  const x509Data = onlyChild(keyInfo, "X509Data");
  const certs = x509Data === null ? undefined : descendantsNamed(x509Data, DSIG_NS, "X509Certificate");
  if (modulus === null || exponent === null) errors.push("KeyInfo: missing KeyValue/RSAKeyValue");
  if (certs === undefined || certs.length !== 1) errors.push("KeyInfo: expected exactly one X509Data/X509Certificate");
  const certEl = certs?.[0] ?? null;
  if (modulus === null || exponent === null || certs?.length !== 1 || certEl === null) return null;
  let key: KeyObject;
  let jwk: JsonWebKey;
  try {
    ({ key, jwk } = certificateKey((certEl.textContent ?? "").replace(/\s+/g, "")));
  } catch (e) {
    errors.push(`KeyInfo: unreadable X509Certificate (${messageOf(e)})`);
    return null;
  }
  if (jwk.kty !== "RSA") {
    errors.push("KeyInfo: the certificate's key is not RSA");
    return null;
  }
  const n = intB64url(b64(modulus.textContent ?? ""));
  const e = intB64url(b64(exponent.textContent ?? ""));
  if (n !== jwk.n || e !== jwk.e) {
    if (strict) {
      errors.push("KeyInfo: RSAKeyValue is not the key of the X509Certificate");
      return null;
    }
    warnings.push("KeyInfo: RSAKeyValue is not the key of the X509Certificate; verified with RSAKeyValue");
    try {
      return createPublicKey({ key: { kty: "RSA", n, e }, format: "jwk" });
    } catch (err) {
      errors.push(`KeyInfo: unreadable RSAKeyValue (${messageOf(err)})`);
      return null;
    }
  }
  return key;
}

/**
 * Verifies `signature` (a `Signature` element of `doc`, parsed from `text`) as the SII's profile requires over
 * `target`: one Reference to `#<target ID>`, that ID unique in the document, C14N 1.0 + RSA-SHA1 + SHA-1,
 * digest and SignatureValue recomputed independently and by xml-crypto, which must have signed exactly the
 * canonical bytes of `target`. Returns the problems found (empty = valid); tolerated oddities go to `warnings`.
 */
export function verifySignatureOver(
  doc: XmlDocument,
  text: string,
  signature: XmlElement,
  target: XmlElement,
  warnings: string[] = [],
  options: VerifyOptions = {},
): string[] {
  const errors: string[] = [];
  if (signature.localName !== "Signature" || signature.namespaceURI !== DSIG_NS) {
    return ["expected a Signature element in the xmldsig namespace"];
  }
  const signedInfo = dsigChild(signature, "SignedInfo", errors);
  const signatureValue = dsigChild(signature, "SignatureValue", errors);
  const key = keyFromKeyInfo(signature, errors, warnings, options.requireCertificateKey !== false);
  if (signedInfo === null || signatureValue === null) return errors;

  const variant = options.canonicalization ?? "inclusive";
  const allowed = (algorithm: string | null): boolean => algorithm === C14N || (variant === "exclusive" && algorithm === EXC_C14N);
  if (!allowed(algorithmOf(onlyChild(signedInfo, "CanonicalizationMethod")))) {
    errors.push(`SignedInfo: CanonicalizationMethod must be ${C14N}`);
  }
  if (algorithmOf(onlyChild(signedInfo, "SignatureMethod")) !== RSA_SHA1) {
    errors.push(`SignedInfo: SignatureMethod must be ${RSA_SHA1}`);
  }
  const references = childElements(signedInfo).filter((e) => e.localName === "Reference");
  const reference = references[0];
  if (references.length !== 1 || reference === undefined) {
    errors.push(`SignedInfo: expected exactly one Reference, found ${references.length}`);
    return errors;
  }
  const id = target.getAttribute("ID") ?? "";
  const uri = reference.getAttribute("URI");
  if (id === "" || uri !== `#${id}`) {
    errors.push(`Reference URI ${JSON.stringify(uri)} does not point at ${target.localName} ID ${JSON.stringify(id)}`);
    return errors;
  }
  const sameId = elementsWithId(doc, id);
  if (sameId.length !== 1 || sameId[0] !== target) {
    errors.push(`ID ${JSON.stringify(id)} is carried by ${sameId.length} elements (signature wrapping?)`);
    return errors;
  }
  const transforms = onlyChild(reference, "Transforms");
  if (transforms !== null) {
    const list = childElements(transforms);
    if (list.length !== 1 || list[0]?.localName !== "Transform" || !allowed(algorithmOf(list[0] ?? null))) {
      errors.push(`Reference: only a single ${C14N} Transform is allowed`);
    }
  }
  if (algorithmOf(onlyChild(reference, "DigestMethod")) !== SHA1) errors.push(`Reference: DigestMethod must be ${SHA1}`);
  if (errors.length > 0) return errors;

  const signedBytes = variant === "exclusive" ? canonicalizeExclusive(target) : variant === "without_inherited" ? canonicalizeWithoutInherited(target) : canonicalizeInclusive(target);
  const digest = createHash("sha1").update(signedBytes, "utf8").digest("base64");
  const expected = (onlyChild(reference, "DigestValue")?.textContent ?? "").replace(/\s+/g, "");
  if (digest !== expected) errors.push(`digest mismatch for #${id}: computed ${digest}, signed ${expected}`);
  if (key === null) return errors;
  const signatureBytes = b64(signatureValue.textContent ?? "");
  const signs = (canonical: string): boolean => rsaVerify("sha1", Buffer.from(canonical, "utf8"), key, signatureBytes);
  if (!signs(canonicalizeInclusive(signedInfo)) && !(variant === "exclusive" && signs(canonicalizeExclusive(signedInfo)))) {
    errors.push("SignatureValue does not verify with the signer's key");
  }
  if (errors.length > 0 || options.crossCheck === false || variant !== "inclusive") return errors;

  // Second opinion: xml-crypto must accept it and must have digested exactly the element we trust.
  try {
    const sx = new SignedXml({ publicCert: key });
    sx.loadSignature(xmldomTwin(text, signature) as unknown as globalThis.Node); // xml-crypto walks xmldom nodes
    if (sx.checkSignature(text) !== true) errors.push("xml-crypto: signature check failed");
    const signed = sx.getSignedReferences();
    if (signed.length !== 1 || signed[0] !== signedBytes) {
      errors.push("xml-crypto signed content differs from the referenced element");
    }
  } catch (e) {
    errors.push(`xml-crypto: ${messageOf(e)}`);
  }
  return errors;
}

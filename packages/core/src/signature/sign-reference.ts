/** One enveloped/detached-by-ID XMLDSig `Signature` over already-canonical data, with node:crypto only. */
import { createHash, sign } from "node:crypto";
import { DSIG_NS } from "../xml/constants.js";
import type { NamespaceMap } from "./canonical.js";
import { renderKeyInfo } from "./key-info.js";
import { renderSignedInfo } from "./signed-info.js";
import type { SigningIdentity } from "./types.js";

export interface SignReferenceOptions {
  /** The C14N 1.0 form of the referenced data (digest is SHA-1 over its UTF-8 bytes). */
  canonical: string;
  uri: string;
  transform: string;
  identity: SigningIdentity;
  /** Prefixed namespaces in scope where the `Signature` element is placed (see `renderSignedInfo`). */
  context?: NamespaceMap;
}

/**
 * Returns `<Signature xmlns="http://www.w3.org/2000/09/xmldsig#">…</Signature>`: SHA-1 digest of `canonical`,
 * RSA-SHA1 (PKCS#1 v1.5) over the canonical `SignedInfo`, KeyInfo with RSAKeyValue and the certificate.
 *
 * @example
 * signReference({ canonical: '<Documento xmlns="http://www.sii.cl/SiiDte" ID="T33F1">…</Documento>', uri: "#T33F1", transform: C14N_ALGORITHM, identity })
 */
export function signReference(options: SignReferenceOptions): string {
  return signReferenceForms(options).file;
}

export interface SignatureForms {
  /** The `Signature` element as written. */
  file: string;
  /**
   * Its C14N 1.0 form inside a canonical parent whose rendered namespaces are the ones `context` named (the
   * xmldsig default is declared on `Signature` itself, nothing on its descendants).
   */
  nested: string;
}

/** `signReference`, also returning the element's canonical form inside its parent (for an enclosing digest). */
export function signReferenceForms({ canonical, uri, transform, identity, context }: SignReferenceOptions): SignatureForms {
  const digest = createHash("sha1").update(canonical, "utf8").digest("base64");
  const signedInfo = renderSignedInfo({ uri, transform, digest, context });
  const value = sign("sha1", Buffer.from(signedInfo.canonical, "utf8"), identity.privateKey).toString("base64");
  const tail = `<SignatureValue>${value}</SignatureValue>${renderKeyInfo(identity)}</Signature>`;
  return {
    file: `<Signature xmlns="${DSIG_NS}">${signedInfo.file}${tail}`,
    nested: `<Signature xmlns="${DSIG_NS}">${signedInfo.nested}${tail}`,
  };
}

/** The signed `getToken` request of the SII authentication (BRIEF §7.1). */
import { TimbreError } from "../errors/index.js";
import { signReference } from "../signature/sign-reference.js";
import type { SigningIdentity } from "../signature/types.js";
import { ENVELOPED_SIGNATURE_ALGORITHM } from "./constants.js";
import { escapeC14nText, escapeText } from "./escape.js";

/**
 * Signs `<getToken><item><Semilla>SEED</Semilla></item></getToken>` with an enveloped signature (`Reference URI=""`,
 * the enveloped-signature transform, `Signature` last child of `getToken`). Returns the XML document text to send
 * in `pszXml` (SOAP) or as the boleta REST token body.
 *
 * @example
 * signSeed("168441616904", identity)
 * // '<?xml version="1.0"?>\n<getToken><item><Semilla>168441616904</Semilla></item><Signature xmlns="http://www.w3.org/2000/09/xmldsig#">…'
 */
export function signSeed(seed: string, identity: SigningIdentity): string {
  const value = seed.trim();
  if (value === "") throw new TimbreError("VALIDATION_ERROR", "empty seed");
  const item = (text: string) => `<item><Semilla>${text}</Semilla></item>`;
  // With URI="" the digest covers the whole document minus the Signature, canonicalized (C14N 1.0).
  const canonical = `<getToken>${item(escapeC14nText(value))}</getToken>`;
  const signature = signReference({ canonical, uri: "", transform: ENVELOPED_SIGNATURE_ALGORITHM, identity });
  return `<?xml version="1.0"?>\n<getToken>${item(escapeText(value))}${signature}</getToken>`;
}

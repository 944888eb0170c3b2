import forge from "node-forge";
import { DerivationBudget } from "./derivation-budget.js";
import type { Pkcs12Contents } from "./types.js";

function derBytes(node: forge.asn1.Asn1): Uint8Array {
  return Uint8Array.from(forge.asn1.toDer(node).getBytes(), (c) => c.charCodeAt(0));
}

type GetCipher = (oid: string, params: forge.asn1.Asn1, password: string) => unknown;
/** forge's PBE helpers (not in its typings). */
const pbe = (forge.pki as unknown as { pbe: { getCipher: GetCipher } }).pbe;

/**
 * Runs forge's synchronous `read` with every PBE derivation it starts charged to a fresh budget first: the
 * parameters inside encrypted parts are only seen once forge has decrypted them. Forge calls `pbe.getCipher`
 * through its shared object, so the guard is swapped in for the call and out again (nothing else runs meanwhile).
 */
function withDerivationBudget<T>(read: () => T): T {
  const original: GetCipher = pbe.getCipher;
  const budget = new DerivationBudget();
  pbe.getCipher = (oid, params, password) => {
    budget.spendFor(oid, params === undefined ? undefined : derBytes(params), "encrypted part");
    return original(oid, params, password);
  };
  try {
    return read();
  } finally {
    pbe.getCipher = original;
  }
}

/**
 * Reads a PKCS#12 with node-forge: handles the legacy RC2/3DES files (and modern ones with ASCII passwords);
 * fails on PBES2/AES files with non-ASCII passwords. Throws forge's error.
 */
export function readPkcs12WithForge(bytes: Uint8Array, password: string): Pkcs12Contents {
  const asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(bytes).toString("binary")), false);
  const p12 = withDerivationBudget(() => forge.pkcs12.pkcs12FromAsn1(asn1, false, password));
  const keys: Uint8Array[] = [];
  const certificates: Uint8Array[] = [];
  for (const content of p12.safeContents) {
    for (const bag of content.safeBags) {
      if (bag.type === forge.pki.oids["pkcs8ShroudedKeyBag"] || bag.type === forge.pki.oids["keyBag"]) {
        if (bag.key) keys.push(derBytes(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(bag.key))));
        else if (bag.asn1) keys.push(derBytes(bag.asn1));
      } else if (bag.type === forge.pki.oids["certBag"]) {
        if (bag.cert) certificates.push(derBytes(forge.pki.certificateToAsn1(bag.cert)));
        else if (bag.asn1) certificates.push(derBytes(bag.asn1));
      }
    }
  }
  return { keys, certificates };
}

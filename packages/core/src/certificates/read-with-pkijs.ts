import { webcrypto } from "node:crypto";
import * as pkijs from "pkijs";
import { readBer } from "./ber.js";
import { toArrayBuffer } from "./der.js";
import { DerivationBudget } from "./derivation-budget.js";
import type { Pkcs12Contents } from "./types.js";

const KEY_BAG = "1.2.840.113549.1.12.10.1.1";
const SHROUDED_KEY_BAG = "1.2.840.113549.1.12.10.1.2";
const CERT_BAG = "1.2.840.113549.1.12.10.1.3";

interface Decryptable {
  encryptionAlgorithm: pkijs.AlgorithmIdentifier;
  parsedValue?: pkijs.PrivateKeyInfo;
  parseInternalValues(parameters: { password: ArrayBuffer }, crypto?: pkijs.ICryptoEngine): Promise<void>;
}

function engine(): pkijs.ICryptoEngine {
  return new pkijs.CryptoEngine({ name: "node", crypto: webcrypto as unknown as Crypto });
}

/**
 * Reads a PKCS#12 with pkijs (WebCrypto): handles modern PBES2/AES files with any password (UTF-8), not the
 * legacy RC2/3DES ones. Throws pkijs' error.
 */
export async function readPkcs12WithPkijs(bytes: Uint8Array, password: string): Promise<Pkcs12Contents> {
  const crypto = engine();
  const passwordBuffer = toArrayBuffer(new TextEncoder().encode(password));
  const pfx = pkijs.PFX.fromBER(toArrayBuffer(bytes));
  await pfx.parseInternalValues({ password: passwordBuffer, checkIntegrity: true }, crypto);
  const safe = pfx.parsedValue?.authenticatedSafe;
  if (!safe) throw new Error("PKCS#12 without authenticated safe");
  await safe.parseInternalValues({ safeContents: safe.safeContents.map(() => ({ password: passwordBuffer })) }, crypto);
  const contents = (safe.parsedValue as { safeContents?: Array<{ value: pkijs.SafeContents }> }).safeContents ?? [];
  const keys: Uint8Array[] = [];
  const certificates: Uint8Array[] = [];
  // The key bags inside encrypted parts are seen only now: their derivations are charged before pkijs runs them.
  const budget = new DerivationBudget();
  for (const content of contents) {
    for (const bag of content.value.safeBags) {
      if (bag.bagId === SHROUDED_KEY_BAG) {
        const shrouded = bag.bagValue as unknown as Decryptable;
        budget.spendForAlgorithm(readBer(new Uint8Array(shrouded.encryptionAlgorithm.toSchema().toBER(false))), "key");
        if (!shrouded.parsedValue) await shrouded.parseInternalValues({ password: passwordBuffer }, crypto);
        if (shrouded.parsedValue) keys.push(new Uint8Array(shrouded.parsedValue.toSchema().toBER(false)));
      } else if (bag.bagId === KEY_BAG) {
        keys.push(new Uint8Array((bag.bagValue as pkijs.PrivateKeyInfo).toSchema().toBER(false)));
      } else if (bag.bagId === CERT_BAG) {
        const certValue = (bag.bagValue as pkijs.CertBag).certValue;
        if (certValue instanceof pkijs.Certificate) certificates.push(new Uint8Array(certValue.toSchema().toBER(false)));
        else if ("valueBlock" in certValue) certificates.push(new Uint8Array(certValue.valueBlock.valueHexView));
      }
    }
  }
  return { keys, certificates };
}

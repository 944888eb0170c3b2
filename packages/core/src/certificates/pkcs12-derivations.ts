/**
 * Walks a PKCS#12's unencrypted structure (RFC 7292) and charges every key derivation it names to a
 * {@link DerivationBudget}: the MAC, each encrypted part's PBE parameters, each shrouded key bag in plain
 * SafeContents. Derivations inside encrypted parts are charged by the readers as they decrypt them.
 */
import { TimbreError } from "../errors/index.js";
import { octetsOf, readBer, unsignedIntegerOf, type BerNode } from "./ber.js";
import { decodeOid } from "./der.js";
import { DerivationBudget } from "./derivation-budget.js";

const DATA = "1.2.840.113549.1.7.1";
const ENCRYPTED_DATA = "1.2.840.113549.1.7.6";
const SHROUDED_KEY_BAG = "1.2.840.113549.1.12.10.1.2";
const SAFE_CONTENTS_BAG = "1.2.840.113549.1.12.10.1.6";

const formatError = (message: string): TimbreError => new TimbreError("CERTIFICATE_INVALID", message, { details: { reason: "format" } });

function oidOf(node: BerNode | undefined): string {
  if (node?.tag !== 0x06) throw formatError("not a PKCS#12 (.p12/.pfx) file: an object identifier is missing");
  return decodeOid(node.content);
}

/** The value inside a `[0] EXPLICIT` wrapper. */
function explicit(node: BerNode | undefined): BerNode | undefined {
  return node?.tag === 0xa0 ? node.children[0] : undefined;
}

function chargeSafeContents(bags: BerNode, budget: DerivationBudget, depth: number): void {
  if (depth > 4) throw formatError("the PKCS#12 nests its contents too deep");
  for (const bag of bags.children) {
    const bagId = oidOf(bag.children[0]);
    const value = explicit(bag.children[1]);
    if (bagId === SHROUDED_KEY_BAG) budget.spendForAlgorithm(value?.children[0], "key");
    else if (bagId === SAFE_CONTENTS_BAG && value) chargeSafeContents(value, budget, depth + 1);
  }
}

/**
 * Charges the derivations visible before decryption; throws `CERTIFICATE_INVALID` (reason `iterations` over the
 * limits, `format` when the structure is not a password-integrity PKCS#12).
 */
export function chargePkcs12Derivations(bytes: Uint8Array, budget: DerivationBudget): void {
  let pfx: BerNode;
  try {
    pfx = readBer(bytes);
  } catch (cause) {
    throw new TimbreError("CERTIFICATE_INVALID", "not a PKCS#12 (.p12/.pfx) file, or a truncated one", { details: { reason: "format", detail: String(cause) }, cause });
  }
  const [, authSafe, macData] = pfx.children;
  if (macData) {
    const iterations = macData.children[2];
    budget.spend(iterations ? unsignedIntegerOf(iterations) : 1, "mac"); // DEFAULT 1
  }
  if (oidOf(authSafe?.children[0]) !== DATA) throw formatError("only password-protected PKCS#12 files are read (this one is signed with a key)");
  const content = explicit(authSafe?.children[1]);
  if (!content) throw formatError("the PKCS#12 has no contents");
  for (const info of parse(octetsOf(content)).children) {
    const type = oidOf(info.children[0]);
    const inner = explicit(info.children[1]);
    if (type === DATA && inner) chargeSafeContents(parse(octetsOf(inner)), budget, 0);
    else if (type === ENCRYPTED_DATA) budget.spendForAlgorithm(inner?.children[1]?.children[1], "certificates");
  }
}

function parse(bytes: Uint8Array): BerNode {
  try {
    return readBer(bytes);
  } catch (cause) {
    throw new TimbreError("CERTIFICATE_INVALID", "the PKCS#12's contents are unreadable", { details: { reason: "format", detail: String(cause) }, cause });
  }
}

/**
 * Refuses a PKCS#12 whose visible key derivations exceed the limits (`CERTIFICATE_INVALID`, reason `iterations`;
 * `format` when it is not a password-protected PKCS#12) without deriving anything: a cheap check a server can run
 * on its own thread before handing the file to a reader.
 *
 * @example
 * checkPkcs12Derivations(bytes) // throws for a file claiming 2^31−1 MAC iterations
 */
export function checkPkcs12Derivations(bytes: Uint8Array): void {
  chargePkcs12Derivations(bytes, new DerivationBudget());
}

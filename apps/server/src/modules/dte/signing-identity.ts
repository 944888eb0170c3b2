/**
 * The business certificate as a signing identity (DTE, envelope, SII authentication). The sealed private key is
 * decrypted once per process and certificate (cached by fingerprint).
 */
import { createPrivateKey, type KeyObject } from "node:crypto";
import type { SiiIdentity } from "@timbre/sii";
import type { BusinessRow } from "../../db/businesses.js";
import { readBusinessRow } from "../businesses/business-row.js";
import type { Deps } from "../../deps.js";
import { ApiError, notFound } from "../../http/errors.js";
import { decryptSecretText } from "../../secrets.js";

export interface SigningIdentityInfo {
  identity: SiiIdentity;
  /** Certificate fingerprint (cache key of SII clients). */
  fingerprint: string;
  validFrom: Date;
  validTo: Date;
}

const keys = new Map<string, KeyObject>();
/** The identity per certificate and holder: one object, so its DER is decoded once (signing threads compare it per job). */
const identities = new Map<string, SiiIdentity>();

function derOf(pem: string): Uint8Array {
  const body = pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
  return new Uint8Array(Buffer.from(body, "base64"));
}

/** The identity of a business row; CERTIFICATE_REQUIRED without one, CERTIFICATE_INVALID once expired. */
export function signingIdentityOf(deps: Deps, business: BusinessRow): SigningIdentityInfo {
  const summary = business.certificate;
  if (!summary || !business.certificatePem || !business.certificateKeyEnc) {
    throw new ApiError("CERTIFICATE_REQUIRED", "the business has no signing certificate: upload one first");
  }
  const validTo = new Date(summary.valid_to);
  if (validTo.getTime() < deps.now().getTime()) {
    throw new ApiError("CERTIFICATE_INVALID", "the business certificate has expired", { reason: "expired", valid_to: summary.valid_to });
  }
  let privateKey = keys.get(summary.fingerprint_sha256);
  if (!privateKey) {
    privateKey = createPrivateKey(decryptSecretText(deps.secrets.masterKey, business.certificateKeyEnc));
    keys.set(summary.fingerprint_sha256, privateKey);
  }
  const holderRut = summary.rut_titular ?? business.rut;
  const identityKey = `${summary.fingerprint_sha256}|${holderRut}`;
  let identity = identities.get(identityKey);
  if (!identity) identities.set(identityKey, (identity = { privateKey, certificateDer: derOf(business.certificatePem), holderRut }));
  return {
    identity,
    fingerprint: summary.fingerprint_sha256,
    validFrom: new Date(summary.valid_from),
    validTo,
  };
}

/** Loads the business and its identity. */
export async function loadSigningIdentity(deps: Deps, businessId: string): Promise<SigningIdentityInfo & { business: BusinessRow }> {
  const business = await readBusinessRow(deps, businessId);
  if (!business) throw notFound("business");
  return { ...signingIdentityOf(deps, business), business };
}

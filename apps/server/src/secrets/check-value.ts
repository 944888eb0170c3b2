/**
 * Check values of the server's secrets (API.md §14): what the database keeps so that a process can tell whether its
 * `TIMBRE_MASTER_KEY` / `TIMBRE_JWT_SECRET` is the one every other process on that database uses.
 *
 * A check value is an HMAC-SHA256 under the secret of a fixed label, the setting's name and a random salt:
 * `hmac-sha256.v1.<salt>.<mac>` (base64url). It never holds the secret, and the salt keeps one database's value
 * from being compared against precomputed tables; the master key is 32 random bytes, beyond any brute force.
 * Pure: the salt is an argument (random by default).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export type SecretName = "TIMBRE_MASTER_KEY" | "TIMBRE_JWT_SECRET";

const PREFIX = "hmac-sha256.v1";
const LABEL = "timbre secret check value";

export function checkValue(name: SecretName, secret: Uint8Array, salt: Uint8Array = randomBytes(16)): string {
  return [PREFIX, Buffer.from(salt).toString("base64url"), mac(name, secret, salt).toString("base64url")].join(".");
}

/** Whether `stored` is the check value of `secret` for `name`; false for anything malformed. */
export function matchesCheckValue(stored: string, name: SecretName, secret: Uint8Array): boolean {
  const parts = stored.split(".");
  if (parts.length !== 4 || `${parts[0]}.${parts[1]}` !== PREFIX) return false;
  const salt = Buffer.from(parts[2] ?? "", "base64url");
  const expected = Buffer.from(parts[3] ?? "", "base64url");
  const actual = mac(name, secret, salt);
  return salt.length > 0 && expected.length === actual.length && timingSafeEqual(expected, actual);
}

function mac(name: SecretName, secret: Uint8Array, salt: Uint8Array): Buffer {
  return createHmac("sha256", secret).update(`${LABEL}\0${name}\0`).update(salt).digest();
}

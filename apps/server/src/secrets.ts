/**
 * Server secrets (API.md §10, §14): the master key that encrypts private keys and webhook secrets at rest, and the
 * JWT signing secret. Where they come from and how a database keeps every process on the same ones:
 * `secrets/resolve-secrets.ts`. Their values are never printed.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

export interface Secrets {
  masterKey: Buffer;
  jwtSecret: Uint8Array;
}

/** `TIMBRE_MASTER_KEY`'s text as the key; throws naming the setting (never the value) when malformed. */
export function parseMasterKey(text: string, setting = "TIMBRE_MASTER_KEY"): Buffer {
  const key = Buffer.from(text, "base64");
  if (key.length !== 32) throw new Error(`${setting} must be 32 bytes, base64-encoded`);
  return key;
}

/** `TIMBRE_JWT_SECRET`'s text as the HS256 key; throws naming the setting when too short. */
export function parseJwtSecret(text: string, setting = "TIMBRE_JWT_SECRET"): Uint8Array {
  const secret = new TextEncoder().encode(text);
  if (secret.length < 32) throw new Error(`${setting} must be at least 32 characters`);
  return secret;
}

const VERSION = "v1";

/** AES-256-GCM; the result is `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function encryptSecret(masterKey: Buffer, plaintext: string | Uint8Array): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", masterKey, iv);
  const data = typeof plaintext === "string" ? Buffer.from(plaintext, "utf8") : Buffer.from(plaintext);
  const ct = Buffer.concat([cipher.update(data), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString("base64url"), tag.toString("base64url"), ct.toString("base64url")].join(".");
}

/** Inverse of `encryptSecret`; throws when the value was tampered with or the key is wrong. */
export function decryptSecret(masterKey: Buffer, sealed: string): Buffer {
  const [version, iv, tag, ct] = sealed.split(".");
  if (version !== VERSION || iv === undefined || tag === undefined || ct === undefined) {
    throw new Error("unsupported sealed secret");
  }
  const decipher = createDecipheriv("aes-256-gcm", masterKey, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]);
}

/** `decryptSecret` as UTF-8 text. */
export function decryptSecretText(masterKey: Buffer, sealed: string): string {
  return decryptSecret(masterKey, sealed).toString("utf8");
}

/**
 * Server secrets (API.md §10): the master key that encrypts private keys and webhook secrets at rest, and the
 * JWT signing secret. Taken from the environment, else generated once into the data directory (mode 0600).
 * Their values are never printed.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.js";

export interface Secrets {
  masterKey: Buffer;
  jwtSecret: Uint8Array;
}

export interface SecretsNotice {
  generated: string[];
}

/** Loads or creates the secrets; `notice.generated` names the files created now (to say so once at start). */
export function loadSecrets(config: Config): { secrets: Secrets; notice: SecretsNotice } {
  const generated: string[] = [];
  const masterB64 = config.masterKey ?? fileSecret(config.dataDir, "master.key", generated);
  const masterKey = Buffer.from(masterB64, "base64");
  if (masterKey.length !== 32) throw new Error("TIMBRE_MASTER_KEY must be 32 bytes, base64-encoded");
  const jwtB64 = config.jwtSecret ?? fileSecret(config.dataDir, "jwt.key", generated);
  const jwtSecret = new TextEncoder().encode(jwtB64);
  if (jwtSecret.length < 32) throw new Error("TIMBRE_JWT_SECRET must be at least 32 characters");
  return { secrets: { masterKey, jwtSecret }, notice: { generated } };
}

/** Reads `<dir>/<name>`, creating it with 32 random bytes (base64, mode 0600) when missing. */
function fileSecret(dir: string, name: string, generated: string[]): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, name);
  try {
    const fd = openSync(path, "wx", 0o600);
    const value = randomBytes(32).toString("base64");
    writeSync(fd, value);
    closeSync(fd);
    generated.push(path);
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return readFileSync(path, "utf8").trim();
  }
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

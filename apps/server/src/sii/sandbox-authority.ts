/**
 * The sandbox SII's CAF authority key is generated once per installation and kept (sealed under the master key)
 * in the `settings` table, so CAFs issued before a restart still verify and every process of one database
 * trusts the same authority.
 */
import { generateAuthorityKey } from "@timbre/core/testing";
import { createPrivateKey, createPublicKey } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../db/open-database.js";
import { settings } from "../db/settings.js";
import { decryptSecretText, encryptSecret } from "../secrets.js";

const KEY = "sandbox_authority";
export const SANDBOX_IDK = 9999;

export interface StoredAuthority {
  idk: number;
  privateKey: import("node:crypto").KeyObject;
  publicKey: import("node:crypto").KeyObject;
}

export async function loadSandboxAuthority(db: Db, masterKey: Buffer): Promise<StoredAuthority> {
  const existing = await read(db, masterKey);
  if (existing) return existing;
  const fresh = generateAuthorityKey(SANDBOX_IDK);
  const pem = fresh.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  await db.insert(settings).values({ key: KEY, value: encryptSecret(masterKey, pem) }).onConflictDoNothing();
  const stored = await read(db, masterKey);
  if (!stored) throw new Error("could not store the sandbox authority key");
  return stored;
}

async function read(db: Db, masterKey: Buffer): Promise<StoredAuthority | null> {
  const [row] = await db.select().from(settings).where(eq(settings.key, KEY));
  if (!row) return null;
  const privateKey = createPrivateKey(decryptSecretText(masterKey, row.value));
  return { idk: SANDBOX_IDK, privateKey, publicKey: createPublicKey(privateKey) };
}

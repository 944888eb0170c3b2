/** API key text: `sk_test_`/`sk_live_` + 32 base62 characters; stored as SHA-256 plus first 12 and last 4. */
import { createHash, randomBytes } from "node:crypto";
import type { Environment } from "../../db/api-keys.js";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{32}$/;

export function generateApiKey(environment: Environment): string {
  let body = "";
  while (body.length < 32) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && body.length < 32) body += BASE62[byte % 62]; // 248 = 4 × 62: no modulo bias
    }
  }
  return `sk_${environment}_${body}`;
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** What is kept for display: `{ prefix: "sk_test_AbCd", last4 }`. */
export function displayParts(key: string): { prefix: string; last4: string } {
  return { prefix: key.slice(0, 12), last4: key.slice(-4) };
}

/**
 * Standard Webhooks signatures (API.md §6.6): `v1,<base64 HMAC-SHA256(secret bytes, "<id>.<timestamp>.<body>")>`.
 * The secret is `whsec_<base64 of 32 bytes>`; during a rotation several secrets sign and the header carries one
 * signature per secret, space-separated.
 */
import { createHmac, randomBytes } from "node:crypto";

export const WEBHOOK_SECRET_PREFIX = "whsec_";

/** A new webhook secret `whsec_<base64 of 32 random bytes>`. */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString("base64");
}

function secretBytes(secret: string): Buffer {
  const raw = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  return Buffer.from(raw, "base64");
}

/** One `v1,<base64>` signature. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", secretBytes(secret)).update(`${id}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers for one delivery, signed with every active secret. */
export function webhookHeaders(secrets: string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((s) => signWebhook(s, id, timestamp, body)).join(" "),
  };
}

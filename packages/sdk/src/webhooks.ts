/**
 * Standard Webhooks verification and signing with Web Crypto (`crypto.subtle`), so the same code runs
 * in browsers, Node ≥ 20, Bun, Deno and edge runtimes.
 */
import type { WebhookEvent } from "./types.js";

/**
 * The signature, timestamp or body of a delivery is not acceptable. Answer 400 and drop it.
 *
 * @example
 * catch (error) { if (error instanceof WebhookVerificationError) return new Response(error.message, { status: 400 }); }
 */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}

/** Headers as a `Headers` object (fetch, Bun) or a plain record (Node `req.headers`, Express). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Accepted distance between `webhook-timestamp` and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The current time (tests). */
  now?: Date;
}

export interface SignParams {
  /** The `webhook-id` (the event id, `evt_…`). */
  id: string;
  /** The `webhook-timestamp`: a Date or unix seconds. */
  timestamp: Date | number;
  /** The exact raw body. */
  body: string | Uint8Array;
  /** `whsec_…` secret. */
  secret: string;
}

const encoder = new TextEncoder();
const SECRET_PREFIX = "whsec_";

function base64ToBytes(value: string): Uint8Array {
  const binary = atob(value);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function secretBytes(secret: string): Uint8Array {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  try {
    return base64ToBytes(encoded);
  } catch {
    throw new WebhookVerificationError("The webhook secret is not valid base64 after `whsec_`.");
  }
}

async function hmacKey(secret: string): Promise<CryptoKey> {
  const raw = secretBytes(secret);
  return crypto.subtle.importKey("raw", raw as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

function signedContent(id: string, timestamp: string, body: string | Uint8Array): Uint8Array {
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const payload = typeof body === "string" ? encoder.encode(body) : body;
  const out = new Uint8Array(prefix.length + payload.length);
  out.set(prefix, 0);
  out.set(payload, prefix.length);
  return out;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(" ") : value;
}

function toUnixSeconds(value: Date | number): number {
  return typeof value === "number" ? Math.floor(value) : Math.floor(value.getTime() / 1000);
}

/**
 * Verify and sign Standard Webhooks deliveries (`webhook-id`, `webhook-timestamp`, `webhook-signature`).
 * Available as `client.webhooks` and as the named export `webhooks` (no API key needed).
 */
export class Webhooks {
  /**
   * Checks a delivery and returns its parsed event. Pass the raw body exactly as received (not
   * re-serialised JSON). Accepts any of several space-separated `v1,` signatures (secret rotation).
   * The comparison is timing-safe: it is done by `crypto.subtle.verify`.
   *
   * @example
   * const event = await webhooks.verify(rawBody, request.headers, process.env.TIMBRE_WEBHOOK_SECRET!);
   * if (event.event === "dte.status_changed") console.log(event.data.new_status);
   */
  async verify(
    rawBody: string | Uint8Array,
    headers: WebhookHeaders,
    secret: string,
    { toleranceSeconds = 300, now }: VerifyOptions = {},
  ): Promise<WebhookEvent> {
    const id = header(headers, "webhook-id");
    const timestamp = header(headers, "webhook-timestamp");
    const signatures = header(headers, "webhook-signature");
    if (!id || !timestamp || !signatures) {
      throw new WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header.");
    }
    if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError("Invalid webhook-timestamp header.");
    const current = toUnixSeconds(now ?? new Date());
    const sent = Number(timestamp);
    if (current - sent > toleranceSeconds) throw new WebhookVerificationError("Webhook timestamp is too old.");
    if (sent - current > toleranceSeconds) throw new WebhookVerificationError("Webhook timestamp is in the future.");

    const key = await hmacKey(secret);
    const content = signedContent(id, timestamp, rawBody);
    let matched = false;
    for (const candidate of signatures.split(" ")) {
      const [version, value] = candidate.split(",", 2);
      if (version !== "v1" || !value) continue;
      let signature: Uint8Array;
      try {
        signature = base64ToBytes(value);
      } catch {
        continue;
      }
      const ok = await crypto.subtle.verify("HMAC", key, signature as BufferSource, content as BufferSource);
      matched ||= ok;
    }
    if (!matched) throw new WebhookVerificationError("No matching webhook signature found.");

    const text = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
    try {
      return JSON.parse(text) as WebhookEvent;
    } catch (cause) {
      throw new WebhookVerificationError(`The webhook body is not JSON: ${String(cause)}`);
    }
  }

  /**
   * Computes the `webhook-signature` header value (`v1,<base64>`) for a body — for receivers' own tests.
   *
   * @example
   * const signature = await webhooks.sign({ id: "evt_1", timestamp: new Date(), body, secret });
   * await fetch("http://localhost:4000/hook", {
   *   method: "POST",
   *   body,
   *   headers: { "webhook-id": "evt_1", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": signature },
   * });
   */
  async sign({ id, timestamp, body, secret }: SignParams): Promise<string> {
    const key = await hmacKey(secret);
    const content = signedContent(id, String(toUnixSeconds(timestamp)), body);
    const mac = await crypto.subtle.sign("HMAC", key, content as BufferSource);
    return `v1,${bytesToBase64(new Uint8Array(mac))}`;
  }

  /**
   * The three headers of a signed delivery, ready to send.
   *
   * @example
   * const headers = await webhooks.headers({ id: "evt_1", timestamp: new Date(), body, secret });
   */
  async headers(params: SignParams): Promise<Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string>> {
    return {
      "webhook-id": params.id,
      "webhook-timestamp": String(toUnixSeconds(params.timestamp)),
      "webhook-signature": await this.sign(params),
    };
  }
}

/** Ready-made instance for receivers that have no API client. */
export const webhooks = new Webhooks();

/**
 * Webhook URLs: http(s) only, https required when serving production, and no private, loopback or link-local
 * targets unless WEBHOOK_ALLOW_PRIVATE is set. `checkWebhookUrl` looks at the literal host (when the URL is
 * saved); `resolveWebhookTarget` also resolves the name and checks every address (at delivery time: a public name
 * may point at a private address).
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { ValidationIssue } from "@timbre/core/errors";

export function checkWebhookUrl(raw: string, options: { requireHttps: boolean; allowPrivate: boolean }): ValidationIssue | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { path: "webhook_url", reason: "format", message: "must be an absolute http(s) URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { path: "webhook_url", reason: "format", message: "must be an http(s) URL" };
  }
  if (options.requireHttps && url.protocol !== "https:") {
    return { path: "webhook_url", reason: "format", message: "must use https" };
  }
  if (url.username || url.password) return { path: "webhook_url", reason: "format", message: "must not carry credentials" };
  if (!options.allowPrivate && isPrivateHost(url.hostname)) {
    return { path: "webhook_url", reason: "not_allowed", message: "private, loopback and link-local targets are not allowed" };
  }
  return null;
}

export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal")) return true;
  const kind = isIP(host);
  if (kind === 4) return isPrivateV4(host);
  if (kind === 6) return isPrivateV6(host);
  return false;
}

function isPrivateV4(ip: string): boolean {
  const [a = 0, b = 0] = ip.split(".").map(Number);
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
}

function isPrivateV6(ip: string): boolean {
  if (ip === "::1" || ip === "::") return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped?.[1]) return isPrivateV4(mapped[1]);
  // WHATWG URL writes IPv4-mapped addresses in hex: [::ffff:127.0.0.1] → [::ffff:7f00:1].
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ip);
  if (hex?.[1] && hex[2]) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return isPrivateV4(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return /^(fc|fd|fe8|fe9|fea|feb)/.test(ip);
}

export type HostLookup = (hostname: string) => Promise<string[]>;

const systemLookup: HostLookup = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** Why a delivery target was refused, or null when it may be called. */
export type TargetRefusal = { reason: "format" | "not_allowed" | "unresolvable"; message: string };

/**
 * The delivery-time check: the URL rules of `checkWebhookUrl`, then (unless private targets are allowed) every
 * address the host resolves to must be public. The fetch resolves the name again, so a DNS answer that changes
 * between the two lookups (rebinding) is not excluded; redirects are never followed by the caller.
 */
export async function resolveWebhookTarget(
  raw: string,
  options: { requireHttps: boolean; allowPrivate: boolean; lookup?: HostLookup },
): Promise<TargetRefusal | null> {
  const issue = checkWebhookUrl(raw, options);
  if (issue) return { reason: issue.reason === "not_allowed" ? "not_allowed" : "format", message: `webhook_url ${issue.message}` };
  if (options.allowPrivate) return null;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return null; // literal address: already checked above
  let addresses: string[];
  try {
    addresses = await (options.lookup ?? systemLookup)(host);
  } catch {
    return { reason: "unresolvable", message: `cannot resolve ${host}` };
  }
  if (addresses.length === 0) return { reason: "unresolvable", message: `cannot resolve ${host}` };
  const bad = addresses.find((a) => isPrivateHost(a));
  if (bad !== undefined) return { reason: "not_allowed", message: `${host} resolves to a private address` };
  return null;
}

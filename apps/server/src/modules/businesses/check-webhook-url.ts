/**
 * Webhook URLs: http(s) only, https required when serving production, and no private, loopback or link-local
 * targets unless WEBHOOK_ALLOW_PRIVATE is set. Checked on literal hosts here; delivery re-checks the resolved
 * address (a public name may point at a private address).
 */
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
  return /^(fc|fd|fe8|fe9|fea|feb)/.test(ip);
}

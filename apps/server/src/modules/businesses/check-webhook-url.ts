/**
 * Webhook URLs: http(s) only, https required when serving production, and no private, loopback or link-local
 * targets unless WEBHOOK_ALLOW_PRIVATE is set. `checkWebhookUrl` looks at the literal host (when the URL is
 * saved); `resolveWebhookTarget` also resolves the name and checks every address (at delivery time: a public name
 * may point at a private address). `resolvePublicHost` is that resolution for any client (the IMAP poller too).
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
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal")) return true;
  const kind = isIP(host);
  if (kind === 4) return isPrivateV4(host);
  if (kind === 6) return isPrivateV6(host);
  return false;
}

/** IPv4 ranges that are not public unicast (IANA special-purpose registry). */
const PRIVATE_V4: Array<[string, number]> = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 3], // multicast, reserved and broadcast
];

function v4Number(ip: string): number {
  return ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function isPrivateV4(ip: string): boolean {
  const n = v4Number(ip);
  return PRIVATE_V4.some(([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(v4Number(base) / 2 ** (32 - bits)));
}

/** The eight 16-bit groups of a valid IPv6 literal (`isIP` said 6), a trailing dotted IPv4 included. */
function v6Groups(ip: string): number[] {
  let text = ip.replace(/%.*$/, "");
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    const n = v4Number(dotted);
    text = text.slice(0, -dotted.length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

function isPrivateV6(ip: string): boolean {
  const g = v6Groups(ip);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  // ::/96 — unspecified, loopback and the deprecated IPv4-compatible addresses ([::127.0.0.1]): never a public host.
  if (zeroTo(6)) return true;
  // IPv4-mapped ::ffff:0:0/96 and IPv4-translated ::ffff:0:0:0/96: the embedded IPv4 address decides.
  if (zeroTo(5) && g5 === 0xffff) return isPrivateV4(v4Of(g6, g7));
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return isPrivateV4(v4Of(g6, g7));
  // NAT64 64:ff9b::/96 embeds the IPv4 target; the local-use NAT64 prefix 64:ff9b:1::/48 is private by definition.
  if (g0 === 0x64 && g1 === 0xff9b) return g2 === 1 || !(g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) || isPrivateV4(v4Of(g6, g7));
  // 6to4 2002::/16 embeds an IPv4 address in the next 32 bits.
  if (g0 === 0x2002) return isPrivateV4(v4Of(g1, g2));
  // 2001::/23 (IETF protocol assignments: Teredo, benchmarking, ORCHID) and 2001:db8::/32 (documentation).
  if (g0 === 0x2001 && (g1 < 0x200 || g1 === 0xdb8)) return true;
  // 100::/64 discard-only; 3fff::/20 documentation.
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return true;
  if (g0 === 0x3fff && g1 < 0x1000) return true;
  // fc00::/7 unique local, fe80::/10 link-local, fec0::/10 site-local (deprecated), ff00::/8 multicast.
  return (g0 & 0xfe00) === 0xfc00 || (g0 & 0xff80) === 0xfe80 || (g0 & 0xff00) === 0xff00;
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
  const resolved = await resolvePublicHost(host, options);
  return "reason" in resolved ? resolved : null;
}

/**
 * The addresses of `host` (a name or a literal), every one of them public unless `allowPrivate`: the one resolver
 * behind webhook deliveries and the IMAP poller (which connects to the address it checked, so a DNS answer that
 * changes afterwards cannot point it elsewhere).
 */
export async function resolvePublicHost(host: string, options: { allowPrivate: boolean; lookup?: HostLookup }): Promise<{ addresses: string[] } | TargetRefusal> {
  const bare = host.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(bare)) addresses = [bare];
  else {
    try {
      addresses = await (options.lookup ?? systemLookup)(bare);
    } catch {
      return { reason: "unresolvable", message: `cannot resolve ${bare}` };
    }
  }
  if (addresses.length === 0) return { reason: "unresolvable", message: `cannot resolve ${bare}` };
  if (!options.allowPrivate && addresses.some((a) => isPrivateHost(a))) return { reason: "not_allowed", message: `${bare} resolves to a private address` };
  return { addresses };
}

/** Whether `host` (a name or a literal) is this machine: `localhost` names, 127.0.0.0/8, `::1`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "");
  if (bare === "localhost" || bare.endsWith(".localhost") || bare === "::1") return true;
  return isIP(bare) === 4 && bare.startsWith("127.");
}

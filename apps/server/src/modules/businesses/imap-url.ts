/**
 * A business's own mailbox (API.md §12 door 3): `imaps://user:password@host[:993]/INBOX`, or `imap://…` (port 143),
 * which must upgrade with STARTTLS unless the server is this machine. The password travels only inside the sealed
 * URL; no message built here carries any part of the URL but the host.
 */
import type { ValidationIssue } from "@timbre/core/errors";
import { isLoopbackHost, isPrivateHost } from "./check-webhook-url.js";

export interface ImapTarget {
  /** TLS from the first byte (`imaps:`); otherwise STARTTLS (`imap:`). */
  secure: boolean;
  host: string;
  port: number;
  user: string;
  password: string;
  /** The folder to poll (the URL's path, `INBOX` when empty). */
  mailbox: string;
}

const FIELD = "intercambio.imap_url";

const refuse = (message: string): ValidationIssue => ({ path: FIELD, reason: "format", message });

const decode = (text: string): string | null => {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
};

/** The URL's parts, or the issue that refuses it (never naming the password). */
export function parseImapUrl(raw: string): ImapTarget | ValidationIssue {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse("must be an imaps:// or imap:// URL: imaps://user:password@host:993/INBOX");
  }
  if (url.protocol !== "imaps:" && url.protocol !== "imap:") return refuse("must be an imaps:// or imap:// URL");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "") return refuse("must name the server");
  const user = decode(url.username);
  const password = decode(url.password);
  if (!user || !password) return refuse("must carry the mailbox's user and password (imaps://user:password@host/INBOX)");
  if (url.search !== "" || url.hash !== "") return refuse("must not carry a query or a fragment");
  const mailbox = decode(url.pathname.replace(/^\//, ""));
  if (mailbox === null) return refuse("the mailbox name is not valid percent-encoding");
  const secure = url.protocol === "imaps:";
  return { secure, host: host.toLowerCase(), port: url.port ? Number(url.port) : secure ? 993 : 143, user, password, mailbox: mailbox || "INBOX" };
}

/** `parseImapUrl` plus the target rule: no private, loopback or link-local server unless `allowPrivate`. */
export function checkImapUrl(raw: string, options: { allowPrivate: boolean }): ValidationIssue | null {
  const parsed = parseImapUrl(raw);
  if ("reason" in parsed) return parsed;
  if (!options.allowPrivate && isPrivateHost(parsed.host)) {
    return { path: FIELD, reason: "not_allowed", message: "private, loopback and link-local servers are not allowed" };
  }
  return null;
}

/** Whether a plain `imap://` connection to this server may stay unencrypted (only on this machine). */
export const maySkipStartTls = (host: string): boolean => isLoopbackHost(host);

/** Same mailbox (server, port, user, folder), whatever the password: its poll progress still holds. */
export const sameMailbox = (a: ImapTarget, b: ImapTarget): boolean =>
  a.host.toLowerCase() === b.host.toLowerCase() && a.port === b.port && a.user === b.user && a.mailbox === b.mailbox && a.secure === b.secure;

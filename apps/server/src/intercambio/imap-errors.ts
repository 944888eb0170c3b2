/**
 * An IMAP failure as the fixed list the business object shows (API.md §12 door 3): `auth` (the server refused the
 * login), `tls` (no trusted encrypted connection: a bad certificate, a failed handshake, no STARTTLS), `mailbox` (the
 * folder cannot be opened) and `unreachable` (everything else: no answer, refused, timed out, dropped).
 */
import type { ImapError } from "../db/businesses.js";

/** Where the poll was when it failed. */
export type PollStage = "connect" | "open" | "fetch";

/** Node's and Bun's codes and messages for TLS trouble (certificate checks, handshakes). */
const TLS_CODES = /CERT|SSL|TLS|ALTNAME|SELF_SIGNED|VERIFY|ISSUER|HANDSHAKE/i;
/** Codes of a connection that ended or never came, whatever the stage. */
const CONNECTION_CODES = /^(NoConnection|EConnectionClosed|ETIMEOUT|CONNECT_TIMEOUT|GREETING_TIMEOUT|UPGRADE_TIMEOUT|ClosedAfterConnect\w*|E[A-Z]+)$/;

export function imapErrorOf(error: unknown, stage: PollStage): ImapError {
  const e = (typeof error === "object" && error !== null ? error : {}) as { code?: unknown; authenticationFailed?: boolean; tlsFailed?: boolean; serverResponseCode?: unknown; mailboxMissing?: boolean; message?: unknown };
  const code = typeof e.code === "string" ? e.code : "";
  if (e.authenticationFailed || e.serverResponseCode === "AUTHENTICATIONFAILED") return "auth";
  if (e.tlsFailed || TLS_CODES.test(code)) return "tls";
  if (CONNECTION_CODES.test(code)) return "unreachable";
  if (e.mailboxMissing || stage === "open") return "mailbox";
  return "unreachable";
}

/**
 * `intercambio.imap_url` of a business PUT as column values (API.md §12 door 3): the URL sealed with the master key,
 * the host and user the business object shows, and the poll's schedule and progress. A new password for the same
 * mailbox keeps the progress (UIDVALIDITY/UID still hold); another server, user or folder starts from the top.
 */
import type { BusinessRow, businesses } from "../../db/businesses.js";
import type { Deps } from "../../deps.js";
import { decryptSecretText, encryptSecret } from "../../secrets.js";
import { parseImapUrl, sameMailbox, type ImapTarget } from "./imap-url.js";

type Columns = Partial<typeof businesses.$inferInsert>;

/** The mailbox a stored row points at, or null (none, or a value that no longer parses). */
export function storedMailbox(deps: Pick<Deps, "secrets">, row: Pick<BusinessRow, "imapUrlEnc">): ImapTarget | null {
  if (row.imapUrlEnc === null) return null;
  const parsed = parseImapUrl(decryptSecretText(deps.secrets.masterKey, row.imapUrlEnc));
  return "reason" in parsed ? null : parsed;
}

/** Columns for `imap_url` (already checked by `businessIssues`); none when the field was not sent. */
export function mailboxColumns(deps: Pick<Deps, "secrets" | "now">, current: Pick<BusinessRow, "imapUrlEnc">, imapUrl: string | null | undefined): Columns {
  if (imapUrl === undefined) return {};
  const cleared: Columns = { imapCheckedAt: null, imapError: null, imapUidValidity: null, imapLastUid: null };
  if (imapUrl === null) return { ...cleared, imapUrlEnc: null, imapHost: null, imapUser: null, imapNextCheckAt: null };
  const next = parseImapUrl(imapUrl);
  if ("reason" in next) throw new Error("imap_url was not checked");
  const previous = storedMailbox(deps, current);
  const keep = previous !== null && sameMailbox(previous, next);
  return {
    ...(keep ? { imapError: null } : cleared),
    imapUrlEnc: encryptSecret(deps.secrets.masterKey, imapUrl),
    imapHost: next.host,
    imapUser: next.user,
    // Due at once: a poll in flight for the previous value loses its claim and records nothing.
    imapNextCheckAt: deps.now(),
  };
}

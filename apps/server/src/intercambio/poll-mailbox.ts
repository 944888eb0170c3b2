/**
 * One poll of a business's own mailbox (API.md §12 door 3): connect with imapflow to the address the SSRF check
 * passed, open the folder read-only (EXAMINE, so nothing a person sees changes), list the UIDs above the stored one
 * and feed each message, oldest first, to `deliverToBusiness` — the import of every mail door. Progress is UIDVALIDITY
 * plus the last UID fed, so flags and reads hide nothing; a new UIDVALIDITY starts from the top again (the import
 * keeps a verified document once). Bounded: at most `maxMessages` a poll, messages over the size limit skipped with
 * an inbox entry (their size is asked first), connect/greeting/socket timeouts and one deadline for the whole poll.
 */
import type { ConnectionOptions } from "node:tls";
import { ImapFlow } from "imapflow";
import { simpleParser } from "mailparser";
import type { BusinessRow, ImapError } from "../db/businesses.js";
import { receivedInbox } from "../db/received.js";
import type { Deps } from "../deps.js";
import { newId } from "../ids.js";
import { isLoopbackHost, resolvePublicHost, type HostLookup } from "../modules/businesses/check-webhook-url.js";
import type { ImapTarget } from "../modules/businesses/imap-url.js";
import { deliverToBusiness, type InboundMail, MESSAGE_LIMIT } from "./deliver-message.js";
import { imapErrorOf, type PollStage } from "./imap-errors.js";

export interface MailboxPollOptions {
  /** Messages fed to the import in one poll (the rest waits for the next one, due at once). */
  maxMessages?: number;
  /** Larger messages are skipped with an inbox entry (default API.md §14's 25 MiB). */
  messageLimit?: number;
  connectTimeoutMs?: number;
  /** Inactivity of an open connection. */
  socketTimeoutMs?: number;
  /** The whole poll; past it the connection is closed (`unreachable`). */
  deadlineMs?: number;
  /** Extra TLS options (tests: the CA of a loopback server's certificate). */
  tls?: ConnectionOptions;
  /** Name resolution for the SSRF check (tests). */
  lookup?: HostLookup;
}

export const POLL_DEFAULTS = { maxMessages: 50, messageLimit: MESSAGE_LIMIT, connectTimeoutMs: 15_000, socketTimeoutMs: 60_000, deadlineMs: 120_000 };

export interface MailboxProgress {
  uidValidity: number | null;
  lastUid: number;
}

export interface MailboxPollResult {
  error: ImapError | null;
  /** Messages left above the bound: poll again at once. */
  more: boolean;
}

/** Records progress after each message; false when the poll lost its claim (stop, record nothing more). */
export type SaveProgress = (progress: MailboxProgress) => Promise<boolean>;

const mailOf = (parsed: Awaited<ReturnType<typeof simpleParser>>): InboundMail => ({
  from: parsed.from?.value[0]?.address ?? null,
  replyTo: parsed.replyTo?.value[0]?.address ?? null,
  subject: parsed.subject ?? null,
});

/** Polls `target` for `business` from `progress`; IMAP failures come back as `error`, ours are thrown. */
export async function pollMailbox(deps: Deps, business: BusinessRow, target: ImapTarget, progress: MailboxProgress, save: SaveProgress, options: MailboxPollOptions = {}, stop?: AbortSignal): Promise<MailboxPollResult> {
  const o = { ...POLL_DEFAULTS, ...options };
  const resolved = await resolvePublicHost(target.host, { allowPrivate: deps.config.webhookAllowPrivate, ...(o.lookup ? { lookup: o.lookup } : {}) });
  if ("reason" in resolved) return { error: "unreachable", more: false };
  const address = resolved.addresses[0] ?? target.host;
  const client = new ImapFlow({
    host: address,
    port: target.port,
    secure: target.secure,
    ...(address !== target.host ? { servername: target.host } : {}),
    // A plain imap:// connection must upgrade (API.md §12), except to this machine, where it stays plain.
    ...(target.secure ? {} : { doSTARTTLS: !isLoopbackHost(address) }),
    auth: { user: target.user, pass: target.password },
    tls: { rejectUnauthorized: true, ...o.tls },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: o.connectTimeoutMs,
    greetingTimeout: o.connectTimeoutMs,
    socketTimeout: o.socketTimeoutMs,
    maxLiteralSize: o.messageLimit + 65_536,
    maxResponseSize: o.messageLimit + 1_048_576,
  });
  // imapflow reports socket trouble as events too; the awaited command rejects with it, which is what counts.
  client.on("error", () => undefined);
  const close = () => client.close();
  const deadline = setTimeout(close, o.deadlineMs);
  stop?.addEventListener("abort", close);
  let stage: PollStage = "connect";
  try {
    await client.connect();
    stage = "open";
    const mailbox = await client.mailboxOpen(target.mailbox, { readOnly: true });
    stage = "fetch";
    const uidValidity = Number(mailbox.uidValidity);
    const from = uidValidity === progress.uidValidity ? progress.lastUid : 0;
    if (from !== progress.lastUid || uidValidity !== progress.uidValidity) {
      if (!(await ours(() => save({ uidValidity, lastUid: from })))) return { error: null, more: false };
    }
    const uids = ((await client.search({ uid: `${from + 1}:*` }, { uid: true })) || []).filter((u) => u > from).sort((a, b) => a - b);
    const batch = uids.slice(0, o.maxMessages);
    const listed = batch.length > 0 ? await client.fetchAll(batch.join(","), { uid: true, size: true, envelope: true }, { uid: true }) : [];
    const sizes = new Map(listed.map((m) => [m.uid, m]));
    for (const uid of batch) {
      if (stop?.aborted) return { error: null, more: true };
      const listedMessage = sizes.get(uid);
      if (listedMessage && (listedMessage.size ?? 0) > o.messageLimit) {
        await ours(() => keepOversized(deps, business, listedMessage.envelope, listedMessage.size ?? 0, o.messageLimit));
      } else if (listedMessage) {
        const fetched = await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
        if (fetched && fetched.source) await ours(() => deliver(deps, business, fetched.source as Buffer));
      }
      // A UID listed by SEARCH but gone by FETCH was expunged meanwhile: nothing to feed, move past it.
      if (!(await ours(() => save({ uidValidity, lastUid: uid })))) return { error: null, more: false };
    }
    await client.logout().catch(() => undefined);
    return { error: null, more: uids.length > batch.length };
  } catch (error) {
    if (error instanceof OwnFailure) throw error.cause;
    return { error: imapErrorOf(error, stage), more: false };
  } finally {
    clearTimeout(deadline);
    stop?.removeEventListener("abort", close);
    client.close();
  }
}

/** A failure of ours (the import, the database) inside a poll: thrown on, never reported as the mailbox's. */
class OwnFailure extends Error {
  constructor(override readonly cause: unknown) {
    super("import failed");
  }
}

async function ours<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new OwnFailure(error);
  }
}

/** One message to the import; one that does not parse still leaves its trace in the inbox (as carrying no XML). */
async function deliver(deps: Deps, business: BusinessRow, source: Buffer): Promise<void> {
  const parsed = await simpleParser(source, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true }).catch(() => null);
  if (!parsed) return deliverToBusiness(deps, business, { from: null, replyTo: null, subject: null }, [], "imap");
  await deliverToBusiness(deps, business, mailOf(parsed), parsed.attachments, "imap");
}

/** A message over the limit is not downloaded: an inbox entry says so (API.md §12, kept 30 days). */
async function keepOversized(deps: Deps, business: BusinessRow, envelope: { from?: Array<{ address?: string }>; subject?: string } | undefined, size: number, limit: number): Promise<void> {
  await deps.db.insert(receivedInbox).values({
    id: newId("inbox"),
    businessId: business.id,
    environment: "test",
    source: "imap",
    reason: "too_large",
    detail: `the message has ${size} bytes; messages are limited to ${limit} bytes`,
    sender: envelope?.from?.[0]?.address?.slice(0, 254) ?? null,
    subject: envelope?.subject?.slice(0, 200) ?? null,
    filename: null,
  });
}

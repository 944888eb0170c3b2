/**
 * Queues a mail in the exchange outbox (`db/received.ts`): one durable row the mail worker sends. The abuse rules of
 * API.md §11 are applied here, when the mail is queued: without `SMTP_URL` the row is `skipped` (`SIN_CORREO`);
 * in the test environment only the inbound domain and `MAIL_TEST_ALLOWLIST` are mailed; at most `MAIL_DAILY_LIMIT`
 * mails per business a day.
 */
import { and, count, eq, gte, ne } from "drizzle-orm";
import { exchangeOutbox, type OutboxAttachment, type OutboxRow } from "../../db/received.js";
import type { Environment } from "../../db/api-keys.js";
import type { Executor } from "../../db/tx.js";
import type { Deps } from "../../deps.js";
import { newId } from "../../ids.js";

export interface MailToQueue {
  businessId: string;
  environment: Environment;
  kind: OutboxRow["kind"];
  subjectId: string | null;
  recipients: string[];
  replyTo: string | null;
  subject: string;
  body: string;
  attachments: OutboxAttachment[];
}

const ADDRESS = /^[^\s@<>(),;:"]{1,64}@[A-Za-z0-9.-]{1,253}$/;

/** Whether `address` may be mailed from `environment` (API.md §11 abuse rule). */
export function mayMail(deps: Deps, environment: Environment, address: string): boolean {
  if (!ADDRESS.test(address)) return false;
  if (environment === "live") return true;
  const domain = address.slice(address.lastIndexOf("@") + 1).toLowerCase();
  const { inboundDomain, testAllowlist } = deps.config.mail;
  return domain === inboundDomain || testAllowlist.includes(domain);
}

/** Whether the business already has `MAIL_DAILY_LIMIT` mails of the last 24 hours (besides `except`). */
export async function dailyLimitReached(deps: Deps, tx: Executor, businessId: string, except?: string): Promise<boolean> {
  const since = new Date(deps.now().getTime() - 24 * 3600 * 1000);
  const [sent] = await tx
    .select({ n: count() })
    .from(exchangeOutbox)
    .where(and(eq(exchangeOutbox.businessId, businessId), gte(exchangeOutbox.createdAt, since), ...(except ? [ne(exchangeOutbox.id, except)] : [])));
  return (sent?.n ?? 0) >= deps.config.mail.dailyLimit;
}

/** Why the mail will not go out, or null when it may be sent. */
async function refusal(deps: Deps, tx: Executor, mail: MailToQueue): Promise<string | null> {
  if (deps.config.mail.smtpUrl === null) return "SIN_CORREO: SMTP_URL is not configured";
  if (mail.recipients.length === 0) return "SIN_DESTINATARIO";
  if (await dailyLimitReached(deps, tx, mail.businessId)) return "SIN_CORREO: MAIL_DAILY_LIMIT reached";
  return null;
}

/**
 * Stores the mail (recipients the environment may not mail are dropped, with the reason when none is left) and
 * returns its row: `pending` and due now, or `skipped` with `error` saying why.
 */
export async function queueMail(deps: Deps, tx: Executor, mail: MailToQueue): Promise<OutboxRow> {
  const allowed = [...new Set(mail.recipients.map((r) => r.trim()).filter((r) => mayMail(deps, mail.environment, r)))];
  const dropped = mail.recipients.length > 0 && allowed.length === 0 ? "SIN_CORREO: the test environment only mails the inbound domain and MAIL_TEST_ALLOWLIST" : null;
  const why = dropped ?? (await refusal(deps, tx, { ...mail, recipients: allowed }));
  const now = deps.now();
  const [row] = await tx
    .insert(exchangeOutbox)
    .values({
      id: newId("mail"),
      businessId: mail.businessId,
      environment: mail.environment,
      kind: mail.kind,
      subjectId: mail.subjectId,
      recipients: allowed,
      replyTo: mail.replyTo,
      subject: mail.subject,
      body: mail.body,
      attachments: mail.attachments,
      state: why === null ? "pending" : "skipped",
      dueAt: why === null ? now : null,
      error: why,
      createdAt: now,
    })
    .returning();
  return row!;
}

/** An XML attachment of the exact bytes. */
export function xmlAttachment(filename: string, bytes: Uint8Array): OutboxAttachment {
  return { filename, contentType: "application/xml", content: Buffer.from(bytes).toString("base64") };
}

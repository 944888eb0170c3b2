/**
 * The mail worker: sends due rows of the exchange outbox (`db/received.ts`) through `SMTP_URL` with nodemailer.
 * Rows are leased with `FOR UPDATE SKIP LOCKED` (any number of processes share the work); a failure is retried after
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h like webhooks (API.md §6.6), except an SMTP 5xx answer, which is final.
 */
import { eq, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import { exchangeOutbox, type OutboxRow } from "../db/received.js";
import { rowsOf } from "../db/rows.js";
import type { Deps } from "../deps.js";
import { documents } from "../db/documents.js";
import { wakeWorkers } from "../jobs/start-workers.js";
import { errorMessage } from "../log.js";
import { recordEvent } from "../modules/dte/change-state.js";
import { prepareDelivery, type Prepared } from "./prepare-delivery.js";

const RETRY_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const LEASE_MS = 120_000;
const BATCH = 10;

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?)$/i;

const transports = new Map<string, Transporter>();

/** One transport per URL; a non-loopback `smtp://` host must offer STARTTLS (API.md §14). */
function transportFor(url: string): Transporter {
  let t = transports.get(url);
  if (!t) {
    const parsed = new URL(url);
    const requireTLS = parsed.protocol === "smtp:" && !LOOPBACK.test(parsed.hostname);
    t = nodemailer.createTransport({
      host: parsed.hostname,
      port: Number(parsed.port || (parsed.protocol === "smtps:" ? 465 : 25)),
      secure: parsed.protocol === "smtps:",
      requireTLS,
      ignoreTLS: !requireTLS && parsed.protocol === "smtp:" && LOOPBACK.test(parsed.hostname),
      ...(parsed.username ? { auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } } : {}),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    transports.set(url, t);
  }
  return t;
}

async function claim(deps: Deps): Promise<OutboxRow[]> {
  const now = deps.now();
  const lease = new Date(now.getTime() + LEASE_MS);
  const result = await deps.db.execute(sql`
    update ${exchangeOutbox} set due_at = ${lease.toISOString()}::timestamptz, attempts = attempts + 1
    where id in (
      select id from ${exchangeOutbox}
      where due_at is not null and due_at <= ${now.toISOString()}::timestamptz and state in ('pending', 'retrying')
      order by due_at limit ${BATCH} for update skip locked)
    returning id`);
  const ids = rowsOf<{ id: string }>(result).map((r) => r.id);
  if (ids.length === 0) return [];
  return deps.db.select().from(exchangeOutbox).where(sql`${exchangeOutbox.id} in ${ids}`);
}

/** What happened to one send: sent, or the error and whether it is final (SMTP 5xx). */
export async function sendOne(deps: Deps, row: OutboxRow): Promise<{ ok: true } | { ok: false; error: string; final: boolean }> {
  const url = deps.config.mail.smtpUrl;
  if (url === null) return { ok: false, error: "SIN_CORREO: SMTP_URL is not configured", final: true };
  try {
    await transportFor(url).sendMail({
      from: deps.config.mail.from,
      to: row.recipients,
      ...(row.replyTo ? { replyTo: row.replyTo } : {}),
      subject: row.subject,
      text: row.body,
      attachments: row.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content, "base64") })),
    });
    return { ok: true };
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode;
    return { ok: false, error: errorMessage(error).slice(0, 500), final: code !== undefined && code >= 500 };
  }
}

async function record(deps: Deps, row: OutboxRow, outcome: Awaited<ReturnType<typeof sendOne>>): Promise<void> {
  const now = deps.now();
  if (outcome.ok) {
    await deps.db.execute(sql`update ${exchangeOutbox} set state = 'sent', sent_at = ${now.toISOString()}::timestamptz, due_at = null, error = null where id = ${row.id}`);
    return;
  }
  const delay = RETRY_MS[row.attempts - 1];
  const failed = outcome.final || delay === undefined;
  const dueAt = failed ? null : new Date(now.getTime() + delay).toISOString();
  await deps.db.execute(sql`update ${exchangeOutbox} set state = ${failed ? "failed" : "retrying"}, due_at = ${dueAt}::timestamptz, error = ${outcome.error} where id = ${row.id}`);
}

/** `dte.delivered` / `dte.delivery_failed` for deliveries (API.md §11), once the outcome is final. */
async function deliveryEvent(deps: Deps, row: OutboxRow, outcome: Awaited<ReturnType<typeof sendOne>>): Promise<void> {
  if (row.kind !== "entrega" || row.subjectId === null || (!outcome.ok && !outcome.final)) return;
  const [doc] = await deps.db.select({ tipo: documents.tipo, folio: documents.folio }).from(documents).where(eq(documents.id, row.subjectId));
  if (!doc) return;
  await deps.db.transaction((tx) =>
    recordEvent(tx, {
      businessId: row.businessId,
      environment: row.environment,
      event: outcome.ok ? "dte.delivered" : "dte.delivery_failed",
      at: deps.now(),
      data: { dte_id: row.subjectId, tipo: doc.tipo, folio: doc.folio, destinatarios: row.recipients, ...(outcome.ok ? {} : { error: outcome.error }) },
    }),
  );
}

/** Sends one claimed row (a delivery is prepared first) and records the outcome. */
async function processRow(deps: Deps, claimed: OutboxRow): Promise<void> {
  let row = claimed;
  if (row.kind === "entrega" && row.attachments.length === 0) {
    let prepared: Prepared;
    try {
      prepared = await prepareDelivery(deps, row);
    } catch (error) {
      prepared = { skip: `FALLIDO: ${errorMessage(error).slice(0, 300)}` };
    }
    if ("skip" in prepared) {
      await deps.db.execute(sql`update ${exchangeOutbox} set state = 'skipped', due_at = null, error = ${prepared.skip} where id = ${row.id}`);
      return;
    }
    row = prepared.row;
  }
  const outcome = await sendOne(deps, row);
  await record(deps, row, outcome);
  // The last retry failing is final too.
  await deliveryEvent(deps, row, outcome.ok || RETRY_MS[row.attempts - 1] !== undefined ? outcome : { ...outcome, final: true });
}

/** One round: sends what is due; `true` when there may be more. */
export function createMailWorker(deps: Deps) {
  return {
    async tick(): Promise<boolean> {
      const rows = await claim(deps);
      await Promise.all(rows.map((row) => processRow(deps, row)));
      if (rows.some((r) => r.kind === "entrega")) wakeWorkers(deps, "webhooks");
      return rows.length === BATCH;
    },
  };
}

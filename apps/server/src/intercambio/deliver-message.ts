/**
 * One inbound message for one business, whatever door it came through (Timbre's SMTP receiver, a business's IMAP
 * mailbox): every `EnvioDTE` attachment goes through the same import as `POST /received`; `RespuestaDTE` /
 * `EnvioRecibos` (receivers' answers) and `RESULTADO_ENVIO` (the SII's review) are applied to the business's own
 * documents (`modules/dte/record-receiver-answer.ts`, `record-sii-result.ts`); what cannot be imported or applied
 * is kept in `received_inbox` with the reason (`GET /received/inbox`; `verify_timeout` when the verification
 * threads gave up on it). The limits are API.md §14's.
 */
import type { Attachment } from "mailparser";
import type { Environment } from "../db/api-keys.js";
import type { BusinessRow } from "../db/businesses.js";
import { receivedInbox } from "../db/received.js";
import type { Deps } from "../deps.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { wakeWorkers } from "../jobs/start-workers.js";
import { errorMessage } from "../log.js";
import { recordReceiverAnswer } from "../modules/dte/record-receiver-answer.js";
import { recordSiiResult } from "../modules/dte/record-sii-result.js";
import { importEnvelope } from "../modules/received/import-envelope.js";

export const MESSAGE_LIMIT = 25 * 1024 * 1024;
export const ATTACHMENT_LIMIT = 10 * 1024 * 1024;
export const MAX_ATTACHMENTS = 20;

const XML_TYPES = /^(application|text)\/xml$/i;

/** Whether an attachment is XML: by MIME type, or by `.xml` name for `application/octet-stream`. */
const isXml = (a: Attachment): boolean => XML_TYPES.test(a.contentType) || /\.xml$/i.test(a.filename ?? "");

/** The root element's local name, read from the first bytes (classification only; the import parses safely). */
function rootOf(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString("latin1");
  const m = /<(?!\?|!)(?:[\w.-]+:)?([\w.-]+)/.exec(head);
  return m?.[1] ?? null;
}

/** The environment of an envelope's documents: their CAF authority (300 production → live; 100 and the sandbox's → test). */
const environmentOf = (bytes: Uint8Array): Environment => (/<IDK>\s*300\s*<\/IDK>/.test(Buffer.from(bytes).toString("latin1")) ? "live" : "test");

/** What the import needs of a message's headers. */
export interface InboundMail {
  from: string | null;
  replyTo: string | null;
  subject: string | null;
}

async function keepFailure(deps: Deps, business: BusinessRow, door: MailDoor, environment: Environment, mail: InboundMail, filename: string | null, reason: string, detail: string): Promise<void> {
  await deps.db.insert(receivedInbox).values({
    id: newId("inbox"),
    businessId: business.id,
    environment,
    source: door,
    reason,
    detail: detail.slice(0, 1000),
    sender: mail.from?.slice(0, 254) ?? null,
    subject: mail.subject?.slice(0, 200) ?? null,
    filename: filename?.slice(0, 200) ?? null,
  });
}

/** The door a message came through, as `received_inbox.source` and the import record it. */
export type MailDoor = "smtp" | "imap";

/** Imports every XML attachment of a parsed message for one business; failures go to the inbox. */
export async function deliverToBusiness(deps: Deps, business: BusinessRow, mail: InboundMail, attachments: Attachment[], door: MailDoor = "smtp"): Promise<void> {
  const xml = attachments.filter(isXml);
  if (xml.length === 0) return keepFailure(deps, business, door, "test", mail, null, "no_xml", "the message carries no XML attachment");
  if (attachments.length > MAX_ATTACHMENTS) return keepFailure(deps, business, door, "test", mail, null, "too_many_attachments", `more than ${MAX_ATTACHMENTS} attachments`);
  for (const a of xml) {
    const bytes = new Uint8Array(a.content);
    const environment = environmentOf(bytes);
    if (bytes.byteLength > ATTACHMENT_LIMIT) {
      await keepFailure(deps, business, door, environment, mail, a.filename ?? null, "too_large", `XML attachments are limited to ${ATTACHMENT_LIMIT} bytes`);
      continue;
    }
    const root = rootOf(bytes);
    if (root === "RespuestaDTE" || root === "EnvioRecibos" || root === "RESULTADO_ENVIO") {
      // The receivers' answers to the business's own documents, and the SII's review of its envelopes.
      try {
        const outcome = root === "RESULTADO_ENVIO" ? await recordSiiResult(deps, business, bytes) : await recordReceiverAnswer(deps, business, bytes, root);
        if (outcome.failure) await keepFailure(deps, business, door, outcome.environment, mail, a.filename ?? null, outcome.failure.reason, outcome.failure.detail);
      } catch (error) {
        await keepFailure(deps, business, door, environment, mail, a.filename ?? null, "internal", errorMessage(error));
        deps.log.error("inbound answer failed", { error: errorMessage(error) });
      }
      continue;
    }
    if (root !== "EnvioDTE") {
      await keepFailure(deps, business, door, environment, mail, a.filename ?? null, "unsupported", `attachment root ${root ?? "unreadable"}`);
      continue;
    }
    try {
      await importEnvelope(deps, business, environment, bytes, { source: door, replyTo: mail.replyTo ?? mail.from, filename: a.filename ?? null });
    } catch (error) {
      // The verification threads are full (API.md §4's 429): thrown on, so the door asks the sender to try again
      // later (SMTP 451) rather than keeping a good envelope as a failure. Imports already done repeat as duplicates.
      if (error instanceof ApiError && error.apiCode === "RATE_LIMITED") throw error;
      const reason = error instanceof ApiError ? String(error.details?.reason ?? error.apiCode) : "internal";
      await keepFailure(deps, business, door, environment, mail, a.filename ?? null, reason, errorMessage(error));
      if (!(error instanceof ApiError)) deps.log.error("inbound import failed", { error: errorMessage(error) });
    }
  }
  wakeWorkers(deps, "webhooks");
  wakeWorkers(deps, "mail");
}

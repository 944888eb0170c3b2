/**
 * Timbre's own mail receiver (API.md §12 door 2, §14): SMTP on `SMTP_INBOUND_PORT`, one address per business
 * (`<token>@INBOUND_DOMAIN`). Hardened: RCPT only for existing business addresses (else 550; so it never relays),
 * messages over 25 MiB refused (552), at most 20 attachments and XML attachments up to 10 MiB, no DTDs (the import
 * refuses them), STARTTLS when `SMTP_INBOUND_TLS_CERT`/`_KEY` are set, at most 10 connections per client address.
 * Every `EnvioDTE` attachment goes through the same import as `POST /received`; what cannot be imported is kept
 * in `received_inbox` with the reason (`GET /received/inbox`).
 */
import { simpleParser, type Attachment } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import type { Environment } from "../db/api-keys.js";
import type { BusinessRow } from "../db/businesses.js";
import { receivedInbox } from "../db/received.js";
import type { Deps } from "../deps.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { wakeWorkers } from "../jobs/start-workers.js";
import { errorMessage } from "../log.js";
import { businessOfAddress } from "../modules/received/intercambio-address.js";
import { importEnvelope } from "../modules/received/import-envelope.js";

export const MESSAGE_LIMIT = 25 * 1024 * 1024;
export const ATTACHMENT_LIMIT = 10 * 1024 * 1024;
export const MAX_ATTACHMENTS = 20;
const CONNECTIONS_PER_ADDRESS = 10;

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

interface Envelope {
  from: string | null;
  replyTo: string | null;
  subject: string | null;
}

async function keepFailure(deps: Deps, business: BusinessRow, environment: Environment, mail: Envelope, filename: string | null, reason: string, detail: string): Promise<void> {
  await deps.db.insert(receivedInbox).values({
    id: newId("inbox"),
    businessId: business.id,
    environment,
    source: "smtp",
    reason,
    detail: detail.slice(0, 1000),
    sender: mail.from?.slice(0, 254) ?? null,
    subject: mail.subject?.slice(0, 200) ?? null,
    filename: filename?.slice(0, 200) ?? null,
  });
}

/** Imports every XML attachment of a parsed message for one business; failures go to the inbox. */
export async function deliverToBusiness(deps: Deps, business: BusinessRow, mail: Envelope, attachments: Attachment[]): Promise<void> {
  const xml = attachments.filter(isXml);
  if (xml.length === 0) return keepFailure(deps, business, "test", mail, null, "no_xml", "the message carries no XML attachment");
  if (attachments.length > MAX_ATTACHMENTS) return keepFailure(deps, business, "test", mail, null, "too_many_attachments", `more than ${MAX_ATTACHMENTS} attachments`);
  for (const a of xml) {
    const bytes = new Uint8Array(a.content);
    const environment = environmentOf(bytes);
    if (bytes.byteLength > ATTACHMENT_LIMIT) {
      await keepFailure(deps, business, environment, mail, a.filename ?? null, "too_large", `XML attachments are limited to ${ATTACHMENT_LIMIT} bytes`);
      continue;
    }
    const root = rootOf(bytes);
    if (root !== "EnvioDTE") {
      // RespuestaDTE / EnvioRecibos (answers to the business's own documents) and RESULTADO_ENVIO (the SII's review)
      // are recognised but not yet applied: kept with the reason so nothing is lost silently.
      const reason = root === "RespuestaDTE" || root === "EnvioRecibos" || root === "RESULTADO_ENVIO" ? "not_processed" : "unsupported";
      await keepFailure(deps, business, environment, mail, a.filename ?? null, reason, `attachment root ${root ?? "unreadable"}`);
      continue;
    }
    try {
      await importEnvelope(deps, business, environment, bytes, { source: "smtp", replyTo: mail.replyTo ?? mail.from, filename: a.filename ?? null });
    } catch (error) {
      const reason = error instanceof ApiError ? String(error.details?.reason ?? error.apiCode) : "internal";
      await keepFailure(deps, business, environment, mail, a.filename ?? null, reason, errorMessage(error));
      if (!(error instanceof ApiError)) deps.log.error("inbound import failed", { error: errorMessage(error) });
    }
  }
  wakeWorkers(deps, "webhooks");
  wakeWorkers(deps, "mail");
}

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

export interface SmtpReceiver {
  port: number;
  close(): Promise<void>;
}

/** Starts the receiver on `port` (0: any free port) at `host`. */
export async function startSmtpReceiver(deps: Deps, options: { port: number; host?: string; tls?: { key: string; cert: string } }): Promise<SmtpReceiver> {
  const perAddress = new Map<string, number>();
  const serverOptions: SMTPServerOptions = {
    name: deps.config.mail.inboundDomain,
    banner: "Timbre intercambio",
    size: MESSAGE_LIMIT,
    authOptional: true,
    disabledCommands: options.tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    logger: false,
    onConnect(session, callback) {
      const n = (perAddress.get(session.remoteAddress) ?? 0) + 1;
      if (n > CONNECTIONS_PER_ADDRESS) return callback(smtpError(421, "Too many connections from your address"));
      perAddress.set(session.remoteAddress, n);
      callback();
    },
    onClose(session) {
      const n = (perAddress.get(session.remoteAddress) ?? 1) - 1;
      if (n <= 0) perAddress.delete(session.remoteAddress);
      else perAddress.set(session.remoteAddress, n);
    },
    onRcptTo(address, _session, callback) {
      businessOfAddress(deps, address.address).then(
        (business) => (business ? callback() : callback(smtpError(550, "No such mailbox here"))),
        () => callback(smtpError(451, "Temporary failure, try again later")),
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MESSAGE_LIMIT) chunks.push(chunk);
      });
      stream.on("end", () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded || size > MESSAGE_LIMIT) {
          return callback(smtpError(552, "Message exceeds the fixed maximum message size"));
        }
        void (async () => {
          const parsed = await simpleParser(Buffer.concat(chunks), { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true });
          const mail: Envelope = {
            from: parsed.from?.value[0]?.address ?? null,
            replyTo: parsed.replyTo?.value[0]?.address ?? null,
            subject: parsed.subject ?? null,
          };
          for (const rcpt of session.envelope.rcptTo) {
            const business = await businessOfAddress(deps, rcpt.address);
            if (business) await deliverToBusiness(deps, business, mail, parsed.attachments);
          }
        })().then(
          () => callback(),
          (error: unknown) => {
            deps.log.error("inbound message failed", { error: errorMessage(error) });
            callback(smtpError(451, "Temporary failure, try again later"));
          },
        );
      });
    },
  };
  const server = new SMTPServer(serverOptions);
  server.on("error", (error) => deps.log.warn("smtp receiver error", { error: errorMessage(error) }));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

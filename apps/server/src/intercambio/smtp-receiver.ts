/**
 * Timbre's own mail receiver (API.md §12 door 2, §14): SMTP on `SMTP_INBOUND_PORT`, one address per business
 * (`<token>@INBOUND_DOMAIN`). Hardened: RCPT only for existing business addresses (else 550; so it never relays),
 * messages over 25 MiB refused (552), at most 20 attachments and XML attachments up to 10 MiB, no DTDs (the import
 * refuses them), STARTTLS when `SMTP_INBOUND_TLS_CERT`/`_KEY` are set, at most 10 connections per client address.
 * Each accepted message goes to `deliverToBusiness` (`deliver-message.ts`) for every business it is addressed to.
 */
import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import type { Deps } from "../deps.js";
import { errorMessage } from "../log.js";
import { businessOfAddress } from "../modules/received/intercambio-address.js";
import { deliverToBusiness, type InboundMail, MESSAGE_LIMIT } from "./deliver-message.js";

const CONNECTIONS_PER_ADDRESS = 10;

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
          const mail: InboundMail = {
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

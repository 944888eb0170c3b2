/**
 * A real SMTP server on loopback that keeps every message it is given (the server's `SMTP_URL` in exchange tests):
 * the `EnvioDTE` attachments a supplier's deliveries carry are what a receiver saves from its mail and imports.
 */
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface CapturedMail {
  to: string[];
  subject: string;
  attachments: Array<{ filename: string; content: Uint8Array }>;
}

export interface MailCapture {
  port: number;
  mails: CapturedMail[];
  /** The first `EnvioDTE` attachment mailed to `to` holding `<Folio>folio</Folio>`, waited for up to `timeoutMs`. */
  envelopeFor(to: string, folio: number, timeoutMs?: number): Promise<Uint8Array>;
  stop(): Promise<void>;
}

const latin1 = new TextDecoder("latin1");

/** `onMail` sees each message as it is kept. */
export async function startMailCapture(onMail?: (mail: CapturedMail) => void): Promise<MailCapture> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          const mail = {
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? "",
            attachments: parsed.attachments.map((a) => ({ filename: a.filename ?? "", content: new Uint8Array(a.content) })),
          };
          mails.push(mail);
          onMail?.(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
  const findEnvelope = (to: string, folio: number) => {
    for (const mail of mails) {
      if (!mail.to.includes(to.toLowerCase())) continue;
      for (const a of mail.attachments) {
        const text = latin1.decode(a.content);
        if (text.includes("<EnvioDTE") && text.includes(`<Folio>${folio}</Folio>`)) return a.content;
      }
    }
    return undefined;
  };
  return {
    port,
    mails,
    async envelopeFor(to, folio, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = findEnvelope(to, folio);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no EnvioDTE with folio ${folio} was mailed to ${to}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The sandbox SII's result mails, delivered (API.md §12, BRIEF-intercambio §5). The SII mails each reviewed
 * envelope's `RESULTADO_ENVIO` to the issuer's *mail de contacto SII*; in sandbox mode that is the issuing business's
 * Timbre intercambio address (`<token>@INBOUND_DOMAIN`, which a business registers at the SII as both its correo de
 * intercambio and its mail de contacto). The in-process sandbox (`sii/sandbox-thread.ts`) hands each mail here; it
 * goes through real SMTP to Timbre's own receiver on `SMTP_INBOUND_PORT` (loopback), and from there through the same
 * `deliverToBusiness` as any mail. Used only in sandbox mode with a fixed inbound port; a mail for an envelope no
 * business of this Timbre sent is dropped (the SII would mail a stranger's contact address).
 */
import type { SiiResultMail } from "@timbre/sii";
import { and, eq, inArray, isNull } from "drizzle-orm";
import nodemailer from "nodemailer";
import { businesses } from "../db/businesses.js";
import { envelopes } from "../db/documents.js";
import type { Deps } from "../deps.js";
import { errorMessage } from "../log.js";
import { intercambioEmail } from "../modules/received/intercambio-address.js";

/** The sender the SII's result mails come from. */
export const SII_RESULT_SENDER = "siidte@sii.cl";

/** Whether this server mails the sandbox's result mails: sandbox mode with Timbre's SMTP receiver on a known port. */
export const mailsSiiResults = (deps: Pick<Deps, "config">): boolean => deps.config.siiMode === "sandbox" && (deps.config.mail.inboundPort ?? 0) > 0;

/** Attempts and pause of the owner lookup: a sandbox reviewing at once mails before the upload's TRACKID is stored. */
const LOOKUPS = 20;
const LOOKUP_PAUSE_MS = 250;

/** The business whose envelope has the mail's TRACKID and whose RUT is its issuer's. */
async function ownerOf(deps: Deps, mail: SiiResultMail): Promise<{ id: string; intercambioToken: string | null } | null> {
  const bare = mail.trackId.replace(/^0+(?=\d)/, "");
  for (let attempt = 1; ; attempt++) {
    const [owner] = await deps.db
      .select({ id: businesses.id, intercambioToken: businesses.intercambioToken })
      .from(envelopes)
      .innerJoin(businesses, eq(businesses.id, envelopes.businessId))
      .where(and(inArray(envelopes.trackId, [...new Set([mail.trackId, bare, bare.padStart(10, "0")])]), eq(businesses.rut, mail.rutEmisor), isNull(businesses.deletedAt)))
      .limit(1);
    if (owner || attempt >= LOOKUPS) return owner ?? null;
    await new Promise((resolve) => setTimeout(resolve, LOOKUP_PAUSE_MS));
  }
}

/**
 * Sends one result mail to the intercambio address of the business whose envelope it reviews.
 *
 * @example
 * await sendSiiResultMail(deps, mail); // → <token>@INBOUND_DOMAIN, through 127.0.0.1:SMTP_INBOUND_PORT
 */
export async function sendSiiResultMail(deps: Deps, mail: SiiResultMail): Promise<void> {
  const owner = await ownerOf(deps, mail);
  if (!owner) return;
  const to = await intercambioEmail(deps, owner);
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: deps.config.mail.inboundPort ?? 0, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({
      from: SII_RESULT_SENDER,
      to,
      subject: mail.subject,
      text: `Resultado de la revision del envio ${mail.trackId} de ${mail.rutEmisor}: ver el archivo adjunto.`,
      attachments: [{ filename: mail.filename, content: Buffer.from(mail.xml, "latin1"), contentType: "application/xml" }],
    });
  } catch (error) {
    deps.log.warn("sandbox result mail not delivered", { track_id: mail.trackId, error: errorMessage(error) });
  } finally {
    transport.close();
  }
}

/** Starts the SMTP receiver from the configuration: all interfaces, STARTTLS with `SMTP_INBOUND_TLS_CERT`/`_KEY` (PEM files). */
import { readFileSync } from "node:fs";
import type { Deps } from "../deps.js";
import { startSmtpReceiver, type SmtpReceiver } from "./smtp-receiver.js";

export async function startInboundSmtp(deps: Deps, port: number): Promise<SmtpReceiver> {
  const cert = process.env.SMTP_INBOUND_TLS_CERT?.trim();
  const key = process.env.SMTP_INBOUND_TLS_KEY?.trim();
  const tls = cert && key ? { cert: readFileSync(cert, "utf8"), key: readFileSync(key, "utf8") } : undefined;
  const receiver = await startSmtpReceiver(deps, { port, host: "0.0.0.0", ...(tls ? { tls } : {}) });
  deps.log.info("smtp receiver listening", { port: receiver.port, domain: deps.config.mail.inboundDomain, starttls: tls !== undefined });
  return receiver;
}

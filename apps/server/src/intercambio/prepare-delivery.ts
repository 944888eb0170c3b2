/**
 * Fills a pending `entrega` row just before its first send (API.md §11): who gets it (the receiver's listed
 * *correo de intercambio* and `receptor.email`; `receptor.email` only for exports; nothing for `66666666-6` or the
 * issuer itself), the `EnvioDTE` addressed to the receiver holding the stored bytes, and the PDF. Returns the row
 * to send, or why nothing is sent (`NO_APLICA`, `SIN_DESTINATARIO`, `SIN_CORREO`). A row that already names its
 * recipient (`POST /dte/{id}/enviar` with `email`) goes to that address only; a boleta's DTE goes as stored (it has
 * no receiver envelope).
 */
import { ANONYMOUS_CONSUMER_RUT } from "@timbre/core/rut";
import { encodeLatin1 } from "@timbre/core";
import { eq } from "drizzle-orm";
import { documents, type DocumentRow } from "../db/documents.js";
import { exchangeOutbox, type OutboxRow } from "../db/received.js";
import type { Deps } from "../deps.js";
import { readBusinessRow } from "../modules/businesses/business-row.js";
import { renderDocumentPdf } from "../modules/dte/render-document-pdf.js";
import { listedIntercambioEmail } from "../modules/issuers/issuer-of.js";
import { intercambioEmail } from "../modules/received/intercambio-address.js";
import { dailyLimitReached, mayMail, xmlAttachment } from "../modules/received/outbox.js";
import { DELIVERED_TIPOS } from "./queue-deliveries.js";
import { buildReceiverEnvelope, EXPORT_TIPOS } from "./receiver-envelope.js";


/** The receivers of API.md §11's table: the listed *correo de intercambio* (not for exports) and `receptor.email`. */
async function receiversOf(deps: Deps, doc: DocumentRow): Promise<string[]> {
  const receptorEmail = ((doc.request as { receptor?: { email?: unknown } }).receptor?.email ?? null) as string | null;
  const listed = EXPORT_TIPOS.has(doc.tipo) ? null : await listedIntercambioEmail(deps, doc.receptorRut, doc.environment);
  return [...new Set([listed, receptorEmail].filter((e): e is string => typeof e === "string" && e !== ""))];
}

export type Prepared = { row: OutboxRow } | { skip: string };

export async function prepareDelivery(deps: Deps, row: OutboxRow): Promise<Prepared> {
  const [doc] = await deps.db.select().from(documents).where(eq(documents.id, row.subjectId ?? ""));
  const business = doc ? await readBusinessRow(deps, doc.businessId) : undefined;
  if (!doc || !business) return { skip: "NO_APLICA: the document no longer exists" };
  // A row that already names its recipient is a `POST /dte/{id}/enviar` to a given address: it goes there.
  const given = row.recipients.length > 0;
  if (!given && (doc.receptorRut === ANONYMOUS_CONSUMER_RUT || doc.receptorRut === business.rut)) return { skip: "NO_APLICA" };
  const wanted = given ? row.recipients : await receiversOf(deps, doc);
  if (wanted.length === 0) return { skip: "SIN_DESTINATARIO" };
  if (deps.config.mail.smtpUrl === null) return { skip: "SIN_CORREO: SMTP_URL is not configured" };
  const recipients = wanted.filter((r) => mayMail(deps, row.environment, r));
  if (recipients.length === 0) return { skip: "SIN_CORREO: the test environment only mails the inbound domain and MAIL_TEST_ALLOWLIST" };
  if (await dailyLimitReached(deps, deps.db, row.businessId, row.id)) return { skip: "SIN_CORREO: MAIL_DAILY_LIMIT reached" };

  // Boletas have no receiver envelope (API.md §11): their DTE goes as stored.
  const xml = DELIVERED_TIPOS.has(doc.tipo) ? encodeLatin1(buildReceiverEnvelope(deps, business, doc)) : doc.xml;
  const scope = { userId: business.userId, businessId: business.id, environment: doc.environment };
  const pdf = await renderDocumentPdf(deps, scope, doc.id, {});
  const name = `dte_${business.rut}_T${doc.tipo}F${doc.folio}`;
  const filled = {
    recipients,
    replyTo: await intercambioEmail(deps, business),
    subject: `DTE tipo ${doc.tipo} N° ${doc.folio} de ${business.razonSocial} (${business.rut})`,
    body: `Se adjunta el documento tributario electrónico tipo ${doc.tipo} N° ${doc.folio} de ${business.razonSocial}.`,
    attachments: [xmlAttachment(`${name}.xml`, xml), { filename: `${name}.pdf`, contentType: "application/pdf", content: Buffer.from(pdf.bytes).toString("base64") }],
  };
  const [updated] = await deps.db.update(exchangeOutbox).set(filled).where(eq(exchangeOutbox.id, row.id)).returning();
  return { row: updated ?? { ...row, ...filled } };
}

/**
 * `POST /v1/dte/:id/enviar` (API.md §11): delivers an accepted document (again) now, to its receivers or to one given
 * address, through the same durable outbox row the acceptance queues. Limits: at most 5 deliveries of one document in
 * 24 hours (the automatic one counts) and `MAIL_DAILY_LIMIT` per business, both 429 `RATE_LIMITED` with `retry_after`;
 * the test environment's allow-list applies as to every mail (an address it may not mail answers `SIN_CORREO` with the
 * reason). Boletas (39, 41) are delivered only to a given address.
 */
import { and, asc, eq, gte } from "drizzle-orm";
import { documents } from "../../db/documents.js";
import { exchangeOutbox } from "../../db/received.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { ApiError, validationError } from "../../http/errors.js";
import { newId } from "../../ids.js";
import { DELIVERED_TIPOS } from "../../intercambio/queue-deliveries.js";
import { wakeWorkers } from "../../jobs/start-workers.js";
import { dailyLimitReached, mayMail } from "../received/outbox.js";
import { findDocument } from "./find-document.js";
import { intercambioOf, type IntercambioView } from "./intercambio-view.js";

export const SENDS_PER_DOCUMENT_PER_DAY = 5;
const DAY_MS = 24 * 3600 * 1000;
const ADDRESS = /^[^\s@<>(),;:"]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})+$/;

/** Why a delivery queued now is refused before it is tried, or null. */
function refusal(deps: Deps, scope: BusinessScope, email: string | null): string | null {
  if (deps.config.mail.smtpUrl === null) return "SIN_CORREO: SMTP_URL is not configured";
  if (email !== null && !mayMail(deps, scope.environment, email)) return "SIN_CORREO: the test environment only mails the inbound domain and MAIL_TEST_ALLOWLIST";
  return null;
}

export async function sendDocument(deps: Deps, scope: BusinessScope, id: string, body: { email?: string }): Promise<IntercambioView> {
  const doc = await findDocument(deps, scope, id);
  if (doc.estado !== "ACEPTADO" && doc.estado !== "ACEPTADO_CON_REPAROS") {
    throw new ApiError("CONFLICT", `a document is delivered once the SII accepted it; this one is ${doc.estado}`, { reason: "not_accepted" });
  }
  const email = body.email?.trim() || null;
  if (email !== null && !ADDRESS.test(email)) throw validationError([{ path: "email", reason: "format", message: "must be one e-mail address" }]);
  if (email === null && !DELIVERED_TIPOS.has(doc.tipo)) {
    throw validationError([{ path: "email", reason: "required", message: `a tipo ${doc.tipo} is delivered only to an address given here` }]);
  }
  await deps.db.transaction(async (tx) => {
    // The document's row is locked so that concurrent requests count each other's deliveries.
    await tx.select({ id: documents.id }).from(documents).where(eq(documents.id, doc.id)).for("update");
    const now = deps.now();
    const recent = await tx
      .select({ createdAt: exchangeOutbox.createdAt })
      .from(exchangeOutbox)
      .where(and(eq(exchangeOutbox.subjectId, doc.id), eq(exchangeOutbox.kind, "entrega"), gte(exchangeOutbox.createdAt, new Date(now.getTime() - DAY_MS))))
      .orderBy(asc(exchangeOutbox.createdAt));
    if (recent.length >= SENDS_PER_DOCUMENT_PER_DAY) {
      const retryAfter = Math.max(1, Math.ceil((recent[0]!.createdAt.getTime() + DAY_MS - now.getTime()) / 1000));
      throw new ApiError("RATE_LIMITED", `a document is delivered at most ${SENDS_PER_DOCUMENT_PER_DAY} times in 24 hours`, { reason: "document_daily_sends", retry_after: retryAfter });
    }
    if (await dailyLimitReached(deps, tx, scope.businessId)) {
      throw new ApiError("RATE_LIMITED", `this business sent its ${deps.config.mail.dailyLimit} mails of the last 24 hours (MAIL_DAILY_LIMIT)`, { reason: "mail_daily_limit", retry_after: 3600 });
    }
    const why = refusal(deps, scope, email);
    await tx.insert(exchangeOutbox).values({
      id: newId("mail"),
      businessId: scope.businessId,
      environment: scope.environment,
      kind: "entrega",
      subjectId: doc.id,
      // Empty: the mail worker finds the receivers (API.md §11's table) when it prepares the row.
      recipients: email === null ? [] : [email],
      replyTo: null,
      subject: "",
      body: "",
      attachments: [],
      state: why === null ? "pending" : "skipped",
      dueAt: why === null ? now : null,
      error: why,
      createdAt: now,
    });
  });
  wakeWorkers(deps, "mail");
  return intercambioOf(deps.db, doc);
}

/**
 * `POST /v1/dte/emit`: validate → totals → folio + sign + store (one transaction, shared with the requests that
 * arrive together: `emission-committer.ts`) → upload → 201 / 202.
 */
import { eq } from "drizzle-orm";
import type { BusinessRow } from "../../db/businesses.js";
import { documentHeadColumns, documents, type DocumentHead, type DocumentRow } from "../../db/documents.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { validationError } from "../../http/errors.js";
import type { IdempotencyRecord } from "./create-document.js";
import { DOCUMENT_KEY_FIELD } from "./schemas.js";
import { commitDocument } from "./emission-committer.js";
import { prepareEmission } from "./prepare-emission.js";
import { presentDocument, type DteView } from "./present-document.js";
import { sendWithinBudget } from "./send-within-budget.js";
import type { SubmitOutcome } from "../../dispatch/submit-documents.js";

export interface Emitted {
  status: 201 | 202;
  data: DteView;
}

async function reloadDocument(deps: Deps, row: DocumentRow): Promise<DocumentHead> {
  const [current] = await deps.db.select(documentHeadColumns).from(documents).where(eq(documents.id, row.id));
  return current ?? row;
}

/** 201 once the SII answered (ENVIADO, or RECHAZADO when it refused the upload); 202 while PENDIENTE. */
export function emittedOf(row: DocumentHead): Emitted {
  return { status: row.estado === "PENDIENTE" ? 202 : 201, data: presentDocument(row) };
}

/**
 * Uploads a document just created (within the emission budget) and answers with it: as the upload left it when it
 * answered in time, otherwise read back (PENDIENTE while the upload goes on).
 */
export async function uploadAndAnswer(deps: Deps, row: DocumentRow, business?: BusinessRow, started?: Promise<SubmitOutcome>): Promise<Emitted> {
  const known = await sendWithinBudget(deps, [row], business, started ? new Map([[row.id, started]]) : undefined);
  return emittedOf(known.get(row.id) ?? (await reloadDocument(deps, row)));
}

export async function emitDocument(deps: Deps, scope: BusinessScope, body: unknown, idempotency: IdempotencyRecord = null): Promise<Emitted> {
  refuseBodyKey(body);
  const prepared = await prepareEmission(deps, scope, body);
  const created = await commitDocument(deps, { scope, prepared, idempotency });
  return uploadAndAnswer(deps, created.row, prepared.business, created.upload);
}

/**
 * A batch document's `idempotency_key` (`document-keys.ts`) sent to `/dte/emit` would otherwise be ignored like any
 * unknown field, and a retry would emit twice: it is refused, pointing at the header that does it here.
 */
function refuseBodyKey(body: unknown): void {
  if (typeof body === "object" && body !== null && DOCUMENT_KEY_FIELD in body) {
    throw validationError([{ path: DOCUMENT_KEY_FIELD, reason: "not_allowed", message: "is for documents of /dte/batch; send the Idempotency-Key header to /dte/emit" }]);
  }
}

/**
 * Answer for an Idempotency-Key whose first request created this document but died before answering
 * (see `linkIdempotentResource`): the document as it is now, 201 or 202 like the emission itself.
 */
export async function replayEmittedDocument(deps: Deps, documentId: string): Promise<{ status: number; body: unknown } | null> {
  if (!documentId.startsWith("dte_")) return null;
  const [row] = await deps.db.select(documentHeadColumns).from(documents).where(eq(documents.id, documentId));
  if (!row) return null;
  const emitted = emittedOf(row);
  return { status: emitted.status, body: { success: true, data: emitted.data } };
}

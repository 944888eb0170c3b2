/**
 * Per-document idempotency keys in a batch — a Timbre extension. Each document of `POST /dte/batch` (and of its
 * check, `/dte/batch/preview`) may carry `idempotency_key` (1–255 printable characters). It means what
 * `Idempotency-Key` means on `POST /dte/emit` for that document alone, in the same key space (API.md §5: the
 * credential's business + environment, 24 h): the key and the document without it are compared as an emission of
 * that document would be, so a key given to `/dte/emit` and then to a batch document, or the other way round, names
 * the same emission.
 *
 * - A key already bound to a document with the same body answers that document as it is now, `replayed: true`,
 *   and takes no folio. A different body is `IDEMPOTENCY_KEY_REUSED`; a first emission still running,
 *   `IDEMPOTENCY_IN_PROGRESS` — both for that document only.
 * - A key is bound when its document is created (in the same transaction). A document that fails does not bind
 *   its key, so the same document can be sent again with the same key once fixed (or once folios were loaded).
 *   A key that `/dte/emit` answered with an error replays that error, as the emission would.
 * - The same key twice in one batch is a validation error of the later documents.
 *
 * Why: a spreadsheet fixed and sent again whole, or a batch sent again after an interruption with some documents
 * changed, must emit only what was not emitted before. Whole-request keys cannot do that once any document changed.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { idempotencyKeys } from "../../db/idempotency-keys.js";
import type { DocumentRow } from "../../db/documents.js";
import type { Deps } from "../../deps.js";
import { bodyFingerprint } from "../../http/body-fingerprint.js";
import { ApiError, validationError } from "../../http/errors.js";
import { beginIdempotent, IDEMPOTENCY_TTL_MS, requestHash, validIdempotencyKey } from "../../http/idempotency.js";
import { decryptSecretText, encryptSecret } from "../../secrets.js";
import { emittedOf } from "./emit-document.js";
import { DOCUMENT_KEY_FIELD } from "./schemas.js";

/** Emissions are compared as if each document had been sent to `/dte/emit` (same key space, same request hash). */
const EMIT_PATH = "/v1/dte/emit";

/** A batch document split into its emission request and its key; `problem` when the key itself is unusable. */
export interface KeyedDocument {
  body: unknown;
  key: string | null;
  hash: string | null;
  problem: ApiError | null;
}

/** Splits every document's key off its body; a malformed key, or one an earlier document used, is a problem. */
export async function splitDocumentKeys(bodies: readonly unknown[]): Promise<KeyedDocument[]> {
  const firstIndex = new Map<string, number>();
  const out: KeyedDocument[] = [];
  for (const [index, raw] of bodies.entries()) {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw) || !(DOCUMENT_KEY_FIELD in raw)) {
      out.push({ body: raw, key: null, hash: null, problem: null });
      continue;
    }
    const { [DOCUMENT_KEY_FIELD]: key, ...body } = raw as Record<string, unknown>;
    if (typeof key !== "string" || !validIdempotencyKey(key)) {
      out.push({ body, key: null, hash: null, problem: keyProblem("format", `${DOCUMENT_KEY_FIELD} must be 1–255 printable characters`) });
      continue;
    }
    const earlier = firstIndex.get(key);
    if (earlier !== undefined) {
      out.push({ body, key: null, hash: null, problem: keyProblem("not_allowed", `document ${earlier} of this batch has the same ${DOCUMENT_KEY_FIELD}`) });
      continue;
    }
    firstIndex.set(key, index);
    out.push({ body, key, hash: requestHash("POST", EMIT_PATH, await bodyFingerprint(body)), problem: null });
  }
  return out;
}

const keyProblem = (reason: "format" | "not_allowed", message: string) => validationError([{ path: DOCUMENT_KEY_FIELD, reason, message }]);

/** What a document's key says before anything is emitted. */
export type KeyClaim =
  /** The key is ours now: emit the document, bind the key to it, then `settleDocumentKeys`. */
  | { kind: "claimed" }
  /** Already emitted under this key: answer this document. */
  | { kind: "emitted"; documentId: string }
  /** `/dte/emit` answered this key with an error: the batch answers the same. */
  | { kind: "failed"; error: ApiError };

/**
 * Claims every key as a `/dte/emit` request would (`beginIdempotent`), in two statements for the usual cases: one
 * insert of all the keys, one read of those already there. A key whose row is expired, abandoned or still running
 * goes through `beginIdempotent` itself, which knows those cases. An unusable claim is that index's error.
 */
export async function claimDocumentKeys(deps: Deps, idempotencyScope: string, keyed: ReadonlyMap<number, { key: string; hash: string }>): Promise<Map<number, KeyClaim | ApiError>> {
  const claims = new Map<number, KeyClaim | ApiError>();
  if (keyed.size === 0) return claims;
  const nowMs = deps.now().getTime();
  const owner = deps.liveness.owner();
  const entries = [...keyed];
  const inserted = await deps.db
    .insert(idempotencyKeys)
    .values(entries.map(([, { key, hash }]) => ({ scope: idempotencyScope, key, requestHash: hash, owner, createdAt: new Date(nowMs), expiresAt: new Date(nowMs + IDEMPOTENCY_TTL_MS) })))
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  const won = new Set(inserted.map((r) => r.key));
  const taken = entries.filter(([, { key }]) => !won.has(key));
  const byKey = await keyRows(deps, idempotencyScope, taken.map(([, k]) => k.key));
  for (const [index, { key, hash }] of entries) {
    if (won.has(key)) {
      claims.set(index, { kind: "claimed" });
      continue;
    }
    const row = byKey.get(key);
    claims.set(index, (row && answeredClaim(deps, row, hash, nowMs)) ?? (await claimOne(deps, idempotencyScope, key, hash)));
  }
  return claims;
}

type KeyRow = typeof idempotencyKeys.$inferSelect;

/** The stored rows of `keys` in the scope, by key. */
async function keyRows(deps: Deps, idempotencyScope: string, keys: string[]): Promise<Map<string, KeyRow>> {
  if (keys.length === 0) return new Map();
  const rows = await deps.db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.scope, idempotencyScope), inArray(idempotencyKeys.key, keys)));
  return new Map(rows.map((r) => [r.key, r]));
}

/**
 * What an answered, unexpired key says of a document with `hash`: another document (REUSED), the document it
 * created, or the error it answered. Null while the key has no answer (still running, abandoned) or is expired.
 */
function answeredClaim(deps: Deps, row: KeyRow, hash: string, nowMs: number): KeyClaim | ApiError | null {
  if (row.expiresAt.getTime() <= nowMs || row.responseStatus === null || row.responseBodyEnc === null) return null;
  if (row.requestHash !== hash) return reused();
  if (row.resourceId && isDocumentId(row.resourceId)) return { kind: "emitted", documentId: row.resourceId };
  return { kind: "failed", error: storedError(decryptSecretText(deps.secrets.masterKey, row.responseBodyEnc)) };
}

async function claimOne(deps: Deps, scope: string, key: string, hash: string): Promise<KeyClaim | ApiError> {
  try {
    return claimOf(await beginIdempotent(deps.db, deps.secrets.masterKey, { scope, key, hash, nowMs: deps.now().getTime(), owner: deps.liveness.owner(), isGone: deps.liveness.isGone }));
  } catch (error) {
    return error instanceof ApiError ? error : new ApiError("INTERNAL_ERROR", "internal server error", undefined, error);
  }
}

const reused = () => new ApiError("IDEMPOTENCY_KEY_REUSED", "this idempotency_key was used with a different document");

function claimOf(begun: Awaited<ReturnType<typeof beginIdempotent>>): KeyClaim | ApiError {
  switch (begun.kind) {
    case "started":
      return { kind: "claimed" };
    case "resource":
      return isDocumentId(begun.resourceId) ? { kind: "emitted", documentId: begun.resourceId } : inProgress();
    case "resume":
      return inProgress();
    case "replay": {
      if (begun.resourceId && isDocumentId(begun.resourceId)) return { kind: "emitted", documentId: begun.resourceId };
      return { kind: "failed", error: storedError(begun.body) };
    }
  }
}

const isDocumentId = (id: string) => id.startsWith("dte_");
const inProgress = () => new ApiError("IDEMPOTENCY_IN_PROGRESS", "a request with this idempotency_key is still being processed");

/** The error a stored `/dte/emit` answer holds (an answer without a document is always an error envelope). */
function storedError(body: string): ApiError {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: string; message?: string; details?: Record<string, unknown> } };
    const code = parsed.error?.code;
    if (code && code !== "INTERNAL_ERROR") return new ApiError(code as ApiError["apiCode"], parsed.error?.message ?? code, parsed.error?.details);
  } catch {
    // fall through
  }
  return new ApiError("IDEMPOTENCY_KEY_REUSED", "this idempotency_key was used by a request that created no document");
}

/**
 * After the batch: each claimed key whose document was created stores that document's answer (what `/dte/emit`
 * with the key replays), all in one statement; every other claimed key is released.
 */
export async function settleDocumentKeys(
  deps: Deps,
  idempotencyScope: string,
  claimed: ReadonlyMap<number, string>,
  created: ReadonlyMap<number, DocumentRow>,
): Promise<void> {
  const answers: Array<{ key: string; status: number; body: string }> = [];
  const released: string[] = [];
  for (const [index, key] of claimed) {
    const row = created.get(index);
    if (!row) {
      released.push(key);
      continue;
    }
    const emitted = emittedOf(row);
    answers.push({ key, status: emitted.status, body: encryptSecret(deps.secrets.masterKey, JSON.stringify({ success: true, data: emitted.data })) });
  }
  const pending = and(eq(idempotencyKeys.scope, idempotencyScope), sql`${idempotencyKeys.responseStatus} is null`);
  if (answers.length > 0) {
    await deps.db.execute(sql`
      update ${idempotencyKeys} set response_status = a.status, response_body_enc = a.body
      from jsonb_to_recordset(${JSON.stringify(answers)}::jsonb) as a(key text, status int, body text)
      where ${pending} and ${idempotencyKeys.key} = a.key`);
  }
  if (released.length > 0) await deps.db.delete(idempotencyKeys).where(and(pending, inArray(idempotencyKeys.key, released)));
}

/**
 * For the batch check, without claiming anything: what each key would answer — the document it names, the error a
 * batch would give (different body, still running, a stored error), or nothing (the document would be emitted).
 */
export async function lookUpDocumentKeys(deps: Deps, idempotencyScope: string, keyed: ReadonlyMap<number, { key: string; hash: string }>): Promise<Map<number, KeyClaim | ApiError>> {
  const out = new Map<number, KeyClaim | ApiError>();
  const byKey = await keyRows(deps, idempotencyScope, [...keyed.values()].map((k) => k.key));
  const now = deps.now().getTime();
  for (const [index, { key, hash }] of keyed) {
    const row = byKey.get(key);
    if (!row || row.expiresAt.getTime() <= now) continue;
    const answered = answeredClaim(deps, row, hash, now);
    if (answered) out.set(index, answered);
    // Not answered yet: its first request is running, or died after creating its document.
    else if (row.requestHash !== hash) out.set(index, reused());
    else if (row.resourceId && isDocumentId(row.resourceId)) out.set(index, { kind: "emitted", documentId: row.resourceId });
    else out.set(index, inProgress());
  }
  return out;
}

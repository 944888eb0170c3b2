/**
 * Idempotency-Key for every POST (API.md §5). Scope: the business + environment (an API key's, or the one a
 * session named and the route verified; a session without business: its user; unauthenticated calls: one public scope — the request hash still has to match). 24 h.
 * The stored body is sealed with the master key: it may hold a key or token shown once.
 */
import { and, eq, lt, sql, type SQL } from "drizzle-orm";
import { createHash } from "node:crypto";
import type { Db } from "../db/open-database.js";
import { idempotencyKeys } from "../db/idempotency-keys.js";
import { nowAndThen } from "../db/housekeeping.js";
import { decryptSecretText, encryptSecret } from "../secrets.js";
import type { Credential } from "./credential.js";
import { ApiError } from "./errors.js";

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/**
 * A first request that ran this long without finishing no longer blocks its key. Sooner when its process is known
 * to be gone (`liveness.ts`): then a retry is served at once.
 */
const ABANDONED_AFTER_MS = 5 * 60 * 1000;

/**
 * `business`: the business + environment the auth plugin verified for the route (`businessScopeOf`). Then the
 * scope is that business and environment whatever the credential, so a key and a session of the same business
 * share their keys (API.md §5).
 */
export function idempotencyScope(credential: Credential | "invalid" | undefined, business?: { businessId: string; environment: string }): string {
  if (business) return `biz:${business.businessId}:${business.environment}`;
  if (credential === undefined || credential === "invalid") return "public";
  if (credential.type === "api_key") return `biz:${credential.businessId}:${credential.environment}`;
  // A session's X-Business-Id not verified for this route: keep it under the user, so no one reaches another
  // tenant's stored answers by naming its business.
  return credential.businessId ? `usr:${credential.userId}:biz:${credential.businessId}:${credential.environment}` : `usr:${credential.userId}`;
}

export function validIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= 255 && /^[\x20-\x7e]+$/.test(key);
}

/** `body` is the request's `bodyFingerprint` (its meaning, not its bytes). */
export function requestHash(method: string, path: string, body: string | null): string {
  const h = createHash("sha256").update(`${method} ${path}\n`);
  if (body !== null) h.update(body);
  return h.digest("hex");
}

export type BeginResult =
  | { kind: "started" }
  /** `resourceId`: what the first request created (a document: `dte_…`), when it created something. */
  | { kind: "replay"; status: number; body: string; resourceId?: string | null }
  /** The first request created `resourceId` but never stored its answer (its process died). */
  | { kind: "resource"; resourceId: string }
  /**
   * A batch whose first request died part-way: the key is claimed again for this request, which must reuse the
   * documents listed in `resourceId` (see `batchResource`) and emit only the others.
   */
  | { kind: "resume"; resourceId: string };

/** What a replay of a created resource answers (the current representation of the resource). */
export type ResourceReplayer = (resourceId: string) => Promise<{ status: number; body: unknown } | null>;

export interface BeginInput {
  scope: string;
  key: string;
  hash: string;
  nowMs: number;
  /** The process claiming the key (`Liveness.owner()`; null: its death cannot be told, the timeout decides). */
  owner?: string | null;
  /** True when the process that claimed the key first is certainly gone. */
  isGone?: (owner: string) => Promise<boolean>;
}

/** Claims the key, or answers with the stored response, or throws REUSED / IN_PROGRESS. */
export async function beginIdempotent(db: Db, masterKey: Buffer, input: BeginInput): Promise<BeginResult> {
  const owner = input.owner ?? null;
  nowAndThen(0.01, () => db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, new Date(input.nowMs))));
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ scope: input.scope, key: input.key, requestHash: input.hash, owner, createdAt: new Date(input.nowMs), expiresAt: new Date(input.nowMs + IDEMPOTENCY_TTL_MS) })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length > 0) return { kind: "started" };
    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, input.scope), eq(idempotencyKeys.key, input.key)));
    if (!row) continue; // released meanwhile
    const expired = row.expiresAt.getTime() <= input.nowMs;
    const abandoned = row.responseStatus === null && (row.createdAt.getTime() + ABANDONED_AFTER_MS <= input.nowMs || (await ownerGone(row.owner, input)));
    if (abandoned && !expired && row.resourceId !== null && row.requestHash === input.hash) {
      if (!isBatchResource(row.resourceId)) return { kind: "resource", resourceId: row.resourceId };
      // Claim it again (compare-and-set on created_at) so that two retries cannot both resume the batch.
      const reclaimed = await db
        .update(idempotencyKeys)
        .set({ createdAt: new Date(input.nowMs), owner })
        .where(and(eq(idempotencyKeys.scope, input.scope), eq(idempotencyKeys.key, input.key), eq(idempotencyKeys.createdAt, row.createdAt), sql`response_status is null`))
        .returning({ resourceId: idempotencyKeys.resourceId });
      const resourceId = reclaimed[0]?.resourceId;
      if (resourceId) return { kind: "resume", resourceId };
      continue;
    }
    if (expired || abandoned) {
      await db
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.scope, input.scope), eq(idempotencyKeys.key, input.key), eq(idempotencyKeys.createdAt, row.createdAt)));
      continue;
    }
    if (row.requestHash !== input.hash) {
      throw new ApiError("IDEMPOTENCY_KEY_REUSED", "this Idempotency-Key was used with a different request");
    }
    if (row.responseStatus === null || row.responseBodyEnc === null) {
      throw new ApiError("IDEMPOTENCY_IN_PROGRESS", "a request with this Idempotency-Key is still being processed");
    }
    return { kind: "replay", status: row.responseStatus, body: decryptSecretText(masterKey, row.responseBodyEnc), resourceId: row.resourceId };
  }
  throw new ApiError("IDEMPOTENCY_IN_PROGRESS", "a request with this Idempotency-Key is still being processed");
}

async function ownerGone(owner: string | null, input: BeginInput): Promise<boolean> {
  return owner !== null && owner !== input.owner && input.isGone !== undefined && (await input.isGone(owner));
}

/** Stores the final answer; a 5xx releases the key so that the client may retry. */
export async function finishIdempotent(
  db: Db,
  masterKey: Buffer,
  record: { scope: string; key: string },
  status: number,
  body: string,
): Promise<void> {
  const where = and(eq(idempotencyKeys.scope, record.scope), eq(idempotencyKeys.key, record.key), sql`response_status is null`);
  if (status >= 500) {
    await db.delete(idempotencyKeys).where(where);
    return;
  }
  await db.update(idempotencyKeys).set({ responseStatus: status, responseBodyEnc: encryptSecret(masterKey, body) }).where(where);
}

/**
 * Releases a claimed key without storing an answer: used for binary answers (a preview PDF), which consume nothing
 * and so are safe to compute again.
 */
export async function releaseIdempotent(db: Db, record: { scope: string; key: string }): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, record.scope), eq(idempotencyKeys.key, record.key), sql`response_status is null`));
}

/** The Idempotency-Key a request claimed; `resume`: the `resource_id` of a batch whose first request died part-way. */
export interface ClaimedIdempotencyKey {
  scope: string;
  key: string;
  resume?: string;
}

/** The key of a request in progress; `batchIndex` when the resource is one item of a batch. */
export type IdempotencyRecord = { scope: string; key: string; batchIndex?: number } | null;

const BATCH_PREFIX = "batch:";

const isBatchResource = (resourceId: string): boolean => resourceId.startsWith(BATCH_PREFIX);

/**
 * The documents a batch request created so far, by item index, from its key's `resource_id`
 * (`batch:,0=dte_…,3=dte_…`, one entry appended per document in that document's own transaction).
 */
export function batchResource(resourceId: string | null | undefined): Map<number, string> {
  const created = new Map<number, string>();
  if (!resourceId || !isBatchResource(resourceId)) return created;
  for (const entry of resourceId.slice(BATCH_PREFIX.length).split(",")) {
    const [index, id] = entry.split("=");
    if (index !== undefined && id !== undefined && /^\d+$/.test(index)) created.set(Number(index), id);
  }
  return created;
}

/**
 * Records, inside the transaction that creates it, the resource a keyed request created (see `resourceId`).
 * Call it with the executor of that transaction so both commit or neither does. A batch item appends
 * `index=id` to the batch's list instead.
 */
export async function linkIdempotentResource(tx: Pick<Db, "update">, record: IdempotencyRecord, resourceId: string): Promise<void> {
  if (!record) return;
  const value =
    record.batchIndex === undefined
      ? resourceId
      : sql`concat_ws(',', coalesce(${idempotencyKeys.resourceId}, ${BATCH_PREFIX}), ${`${record.batchIndex}=${resourceId}`}::text)`;
  await tx
    .update(idempotencyKeys)
    .set({ resourceId: value })
    .where(and(eq(idempotencyKeys.scope, record.scope), eq(idempotencyKeys.key, record.key), sql`response_status is null`));
}

/** A resource created under a keyed request, for `linkResourcesInStatement`. */
export interface ResourceLink {
  record: NonNullable<IdempotencyRecord>;
  resourceId: string;
}

/** The links as the one JSON parameter `linkResourcesInStatement` reads. */
export function resourceLinksJson(links: readonly ResourceLink[]): string {
  return JSON.stringify(links.map(({ record, resourceId }) => ({ scope: record.scope, key: record.key, batch_index: record.batchIndex ?? null, resource_id: resourceId })));
}

/**
 * `linkIdempotentResource` for many resources at once, as a CTE (`idem as (…)`) of the statement that creates them:
 * only the links whose resource is among `created` (a subquery of the created ids) are written. The items of one
 * batch key are appended together, in item order. The text is the same whatever the links: they are one parameter,
 * `rows` (`resourceLinksJson`, or its placeholder in a statement template).
 */
export function linkResourcesInStatement(rows: unknown, created: SQL): SQL {
  return sql`idem as (
    update ${idempotencyKeys} k
    set resource_id = case when l.batch then concat_ws(',', coalesce(k.resource_id, ${BATCH_PREFIX}::text), l.parts) else l.parts end
    from (
      select i.scope, i.key, bool_or(i.batch_index is not null) as batch,
        string_agg(case when i.batch_index is null then i.resource_id else i.batch_index || '=' || i.resource_id end, ',' order by i.batch_index) as parts
      from json_to_recordset(${rows}::json) as i(scope text, key text, batch_index int, resource_id text)
      where i.resource_id in ${created}
      group by i.scope, i.key
    ) l
    where k.scope = l.scope and k.key = l.key and k.response_status is null
  )`;
}

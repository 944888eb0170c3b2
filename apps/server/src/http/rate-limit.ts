/**
 * Fixed one-minute windows counted in PostgreSQL (API.md §4), so every server process shares one limit.
 * Buckets: `key:<id>` for API keys, `user:<id>` for sessions, `ip:<address>` for everyone else. The client
 * address is the socket's, or the left-most `X-Forwarded-For` entry only when TRUST_PROXY is set (behind a proxy
 * that overwrites that header; otherwise any client could pick its own bucket). The counter's commit does not
 * wait for the disk (`db/async-commit.ts`): every request of a key updates the same row, and a slow flush would
 * queue them all behind it; a crash may forget the last increments of the current minute. The hits that arrive
 * together share one statement (`countHits`).
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/open-database.js";
import { asyncCommitRow } from "../db/async-commit.js";
import { coalescedPer } from "../db/coalesce.js";
import { nowAndThen } from "../db/housekeeping.js";
import { rowsOf } from "../db/rows.js";
import type { Credential } from "./credential.js";

export const WINDOW_MS = 60_000;

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (≥ 1). */
  resetS: number;
}

export function rateLimitBucket(credential: Credential | "invalid" | undefined, ip: string): string {
  if (credential === undefined || credential === "invalid") return `ip:${ip}`;
  return credential.type === "api_key" ? `key:${credential.keyId}` : `user:${credential.userId}`;
}

interface Hit {
  bucket: string;
  windowStart: string;
}

/**
 * The counts of a round of hits (`db/coalesce.ts`): one upsert adds each bucket's hits of the round, and the
 * round's hits of a bucket get consecutive counts in arrival order, as if each had incremented alone.
 */
const countHits = coalescedPer((db: Db) => async (hits: Hit[]): Promise<number[]> => {
  const added = new Map<string, { bucket: string; window_start: string; n: number }>();
  for (const hit of hits) {
    const key = `${hit.bucket}\u0000${hit.windowStart}`;
    const entry = added.get(key);
    if (entry) entry.n++;
    else added.set(key, { bucket: hit.bucket, window_start: hit.windowStart, n: 1 });
  }
  const result = await db.execute(sql`
    insert into rate_limits (bucket, window_start, count)
    select h.bucket, h.window_start, h.n
    from jsonb_to_recordset(${JSON.stringify([...added.values()])}::jsonb) as h(bucket text, window_start timestamptz, n int), ${asyncCommitRow}
    on conflict (bucket, window_start) do update set count = rate_limits.count + excluded.count
    returning bucket, window_start, count`);
  const totals = new Map<string, number>();
  for (const row of rowsOf<{ bucket: string; window_start: string | Date; count: number | string }>(result)) {
    totals.set(`${row.bucket}\u0000${new Date(row.window_start).toISOString()}`, Number(row.count));
  }
  // The first hit of a bucket in this round gets total − n + 1, the next one more, …
  const seen = new Map<string, number>();
  return hits.map((hit) => {
    const key = `${hit.bucket}\u0000${hit.windowStart}`;
    const before = seen.get(key) ?? 0;
    seen.set(key, before + 1);
    return (totals.get(key) ?? 1) - (added.get(key)?.n ?? 1) + before + 1;
  });
});

export async function consumeRateLimit(db: Db, bucket: string, limit: number, nowMs: number): Promise<RateLimitResult> {
  const windowStart = new Date(Math.floor(nowMs / WINDOW_MS) * WINDOW_MS);
  const count = await countHits(db, { bucket, windowStart: windowStart.toISOString() });
  nowAndThen(0.01, () => db.execute(sql`delete from rate_limits where window_start < ${new Date(nowMs - 5 * WINDOW_MS).toISOString()}`));
  const resetS = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - nowMs) / 1000));
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetS };
}

export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  return {
    "RateLimit-Policy": `"default";q=${result.limit};w=${WINDOW_MS / 1000}`,
    RateLimit: `"default";r=${result.remaining};t=${result.resetS}`,
  };
}

/** The caller's address for the `ip:` bucket. */
export function clientIp(headers: Headers, socketIp: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return socketIp ?? "unknown";
}

/**
 * Fixed one-minute windows counted in PostgreSQL (API.md §4), so every server process shares one limit.
 * Buckets: `key:<id>` for API keys, `user:<id>` for sessions, `ip:<address>` for everyone else. The client
 * address is the socket's, or the left-most `X-Forwarded-For` entry only when TRUST_PROXY is set (behind a proxy
 * that overwrites that header; otherwise any client could pick its own bucket). The counter's commit does not
 * wait for the disk (`db/async-commit.ts`): every request of a key updates the same row, and a slow flush would
 * queue them all behind it; a crash may forget the last increments of the current minute.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/open-database.js";
import { asyncCommitRow } from "../db/async-commit.js";
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

export async function consumeRateLimit(db: Db, bucket: string, limit: number, nowMs: number): Promise<RateLimitResult> {
  const windowStart = new Date(Math.floor(nowMs / WINDOW_MS) * WINDOW_MS);
  const result = await db.execute(sql`
    insert into rate_limits (bucket, window_start, count)
    select ${bucket}, ${windowStart.toISOString()}::timestamptz, 1 from ${asyncCommitRow}
    on conflict (bucket, window_start) do update set count = rate_limits.count + 1
    returning count`);
  const count = Number(rowsOf<{ count: number | string }>(result)[0]?.count ?? 1);
  if (Math.random() < 0.01) {
    await db.execute(sql`delete from rate_limits where window_start < ${new Date(nowMs - 5 * WINDOW_MS).toISOString()}`);
  }
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

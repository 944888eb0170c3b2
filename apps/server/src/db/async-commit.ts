/**
 * Lets one autocommitted statement return before its commit reaches the disk (`synchronous_commit = off` for
 * that transaction only, set from inside the statement with `set_config(…, true)`; the session keeps its
 * setting). PostgreSQL still writes the commit within a few hundred milliseconds, and a crash can lose it, never
 * corrupt anything. For writes whose loss is harmless — advisory counters, a timestamp shown for information, a
 * claim that a later synchronous commit always makes durable before anything leaves the server — and whose wait
 * for the disk would otherwise hold a hot row's lock: on this project's VM a commit's flush sometimes takes
 * 0.5–1 s, and every request of the same key queued behind it on the rate-limit row.
 *
 * `asyncCommitRow` is a one-row subquery to select FROM (an INSERT … SELECT); `asyncCommitCondition` is a
 * WHERE condition that is always true. Both run `set_config` once per statement. On PGlite they are harmless.
 */
import { sql } from "drizzle-orm";

export const asyncCommitRow = sql`(select set_config('synchronous_commit', 'off', true) as async_commit) as async_commit`;

export const asyncCommitCondition = sql`(select set_config('synchronous_commit', 'off', true)) = 'off'`;

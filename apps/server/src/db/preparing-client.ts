/**
 * A postgres.js client whose `unsafe()` uses named prepared statements.
 *
 * drizzle's postgres-js driver sends every query that was not built with `.prepare(name)` through
 * `sql.unsafe(text, params, { prepare: false })`: an unnamed statement, so PostgreSQL parses and plans it and
 * postgres.js parses its row description again on every call. Measured on this project's machine
 * (`bench/RESULTS.md`, "Capacity"): a one-row select costs 557 µs of client CPU that way and 109 µs prepared.
 * postgres.js keeps prepared statements per connection keyed by text and parameter types, so turning `prepare`
 * on for the texts drizzle generates gives every query the prepared path after its first use on a connection.
 *
 * The set of texts stays small: the server never inlines values into SQL (`sql.raw` only for constants), so texts
 * differ only by shape — optional filters and the length of `IN` lists. A statement with more than
 * `MAX_PREPARED_PARAMS` parameters (long `IN` lists of a batch) stays unnamed, so each connection keeps at most that
 * many variants of a list query; postgres.js also recycles connections (`max_lifetime`, 30–60 min), which empties
 * the cache. Queries without parameters keep the simple protocol (postgres.js's own rule), so `begin`, `commit` and
 * multi-statement scripts are unaffected.
 * Transaction and savepoint handles are wrapped the same way.
 *
 * A statement whose best plan depends on its parameters and on how big a table has grown is marked with
 * `planEachCall` and stays unnamed. A named statement gets a generic plan after five executions, and PostgreSQL
 * keeps it until the table is analysed again (never, where autovacuum is off): `changeDocumentStates` on a young
 * `documents` table got a hash join over a sequential scan, and kept scanning the whole table on every state change
 * as the table grew (4–5 ms a call after a minute of load, 0.85 ms planned per call; `bench/RESULTS.md`, "plan per
 * call"). Unnamed, it is planned with its real parameters and the table's current size, and uses the primary key.
 */
import { sql, type SQL } from "drizzle-orm";
import type postgres from "postgres";

/** The document insert, the widest hot statement, binds at most 24 parameters (one per column). */
export const MAX_PREPARED_PARAMS = 64;

/** The comment that marks a statement to be planned on every call (see the module comment). */
const PLAN_EACH_CALL = "/* plan each call */";

/**
 * `query` marked to be planned with its parameters on every call instead of getting a cached generic plan
 * (PostgreSQL driver; PGlite plans every call anyway).
 *
 * @example
 * await tx.execute(planEachCall(sql`update documents set … where id in (select … from jsonb_to_recordset(${rows}))`));
 */
export function planEachCall(query: SQL): SQL {
  return sql`${sql.raw(PLAN_EACH_CALL)} ${query}`;
}

type AnySql = postgres.Sql | postgres.TransactionSql;
type Unsafe = (text: string, params?: unknown[], options?: { prepare?: boolean }) => unknown;
type Scoped = (...args: unknown[]) => unknown;

/** Wraps a scope function (`begin`, `savepoint`) so that its handle is made preparing too. */
function scoped(scope: Scoped): Scoped {
  return (...args: unknown[]) => {
    const fn = args.pop() as (sql: postgres.TransactionSql) => unknown;
    return scope(...args, (tx: postgres.TransactionSql) => fn(prepareAlways(tx)));
  };
}

/**
 * Replaces `unsafe`, `begin` and `savepoint` on the handle itself (postgres.js's functions are closures over
 * their connection, not `this`-bound, and a Proxy costs a trap on every property read).
 */
function prepareAlways<T extends AnySql>(sql: T): T {
  const target = sql as unknown as Record<string, unknown>;
  const unsafe = target.unsafe as Unsafe;
  target.unsafe = (text: string, params: unknown[] = [], options: { prepare?: boolean } = {}) =>
    unsafe(text, params, { ...options, prepare: params.length <= MAX_PREPARED_PARAMS && !text.startsWith(PLAN_EACH_CALL) });
  if (typeof target.begin === "function") target.begin = scoped(target.begin as Scoped);
  if (typeof target.savepoint === "function") target.savepoint = scoped(target.savepoint as Scoped);
  return sql;
}

/** `client` with prepared statements for drizzle's queries (see the module comment); changes `client` in place. */
export function preparingClient(client: postgres.Sql): postgres.Sql {
  return prepareAlways(client);
}

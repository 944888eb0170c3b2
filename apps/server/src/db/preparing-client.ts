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
 *
 * Planning on every call costs, though: the state changes of an envelope spent 0.30–0.35 ms of PostgreSQL's CPU
 * planning per call and a second round trip (postgres.js describes an unnamed statement before binding it), per
 * envelope, which at small envelopes is a fair part of an emission. A statement whose plan depends only on how big
 * one table has grown is marked `planBySize(table, query)` instead: it is prepared under a name that carries the
 * table's size class (its main fork's pages, in steps of √2), so PostgreSQL plans it anew — five custom plans, then
 * a generic one made for that size — each time the table has grown by √2 since. The size is read in the background
 * at most every `sizeRefreshMs` (1 s: a table under load crosses a class in seconds); until it is known the
 * statement is planned per call.
 */
import { sql, type SQL } from "drizzle-orm";
import type postgres from "postgres";

/** The document insert, the widest hot statement, binds at most 24 parameters (one per column). */
export const MAX_PREPARED_PARAMS = 64;

/** The comment that marks a statement to be planned on every call (see the module comment). */
const PLAN_EACH_CALL = "/* plan each call */";
/** The comment that marks a statement to be planned for the size of a table (`planBySize`). */
const PLAN_BY_SIZE = /^\/\* plan by size of ([a-z_][a-z0-9_]*) \*\//;

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

/**
 * `query` marked to be prepared once per size class of `table` (see the module comment): for statements whose best
 * plan changes as that table grows, not with their parameters.
 *
 * @example
 * await tx.execute(planBySize("documents", sql`update documents set … where (id, estado) in (select … from input)`));
 */
export function planBySize(table: string, query: SQL): SQL {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`planBySize: not a table name: ${table}`);
  return sql`${sql.raw(`/* plan by size of ${table} */`)} ${query}`;
}

/** The size class of a relation of `bytes`: 0 below 8 pages, then one class per factor √2 of pages. */
export function sizeClass(bytes: number): number {
  const pages = bytes / 8192;
  return pages < 8 ? 0 : Math.floor(2 * Math.log2(pages));
}

/** Size classes of tables, read in the background from the root client (`planBySize`). */
type SizeClasses = (table: string) => number | undefined;

function sizeClasses(unsafe: Unsafe, refreshMs: number): SizeClasses {
  const known = new Map<string, { size?: number; at: number; reading: boolean }>();
  return (table) => {
    let entry = known.get(table);
    if (entry === undefined) known.set(table, (entry = { at: -Infinity, reading: false }));
    const now = performance.now();
    if (!entry.reading && now - entry.at >= refreshMs) {
      const current = entry;
      current.reading = true;
      Promise.resolve(unsafe("select pg_relation_size(to_regclass($1))::float8 as bytes", [table], { prepare: true }))
        .then(
          (rows) => {
            const bytes = Number((rows as Array<{ bytes: unknown }>)[0]?.bytes);
            if (Number.isFinite(bytes)) current.size = sizeClass(bytes);
          },
          () => {}, // keep the last class (or none: planned per call)
        )
        .finally(() => {
          current.at = performance.now();
          current.reading = false;
        });
    }
    return entry.size;
  };
}

type AnySql = postgres.Sql | postgres.TransactionSql;
type Unsafe = (text: string, params?: unknown[], options?: { prepare?: boolean }) => unknown;
type Scoped = (...args: unknown[]) => unknown;

/** Wraps a scope function (`begin`, `savepoint`) so that its handle is made preparing too. */
function scoped(scope: Scoped, sizes: SizeClasses): Scoped {
  return (...args: unknown[]) => {
    const fn = args.pop() as (sql: postgres.TransactionSql) => unknown;
    return scope(...args, (tx: postgres.TransactionSql) => fn(prepareAlways(tx, sizes)));
  };
}

/**
 * Replaces `unsafe`, `begin` and `savepoint` on the handle itself (postgres.js's functions are closures over
 * their connection, not `this`-bound, and a Proxy costs a trap on every property read).
 */
function prepareAlways<T extends AnySql>(sql: T, sizes: SizeClasses): T {
  const target = sql as unknown as Record<string, unknown>;
  const unsafe = target.unsafe as Unsafe;
  target.unsafe = (text: string, params: unknown[] = [], options: { prepare?: boolean } = {}) => {
    const bySize = PLAN_BY_SIZE.exec(text);
    if (bySize !== null) {
      const size = sizes(bySize[1] as string);
      if (size === undefined) return unsafe(text, params, { ...options, prepare: false });
      const named = `/* plan for ${bySize[1]} of size class ${size} */${text.slice(bySize[0].length)}`;
      return unsafe(named, params, { ...options, prepare: params.length <= MAX_PREPARED_PARAMS });
    }
    return unsafe(text, params, { ...options, prepare: params.length <= MAX_PREPARED_PARAMS && !text.startsWith(PLAN_EACH_CALL) });
  };
  if (typeof target.begin === "function") target.begin = scoped(target.begin as Scoped, sizes);
  if (typeof target.savepoint === "function") target.savepoint = scoped(target.savepoint as Scoped, sizes);
  return sql;
}

export interface PreparingOptions {
  /** How often the size of a `planBySize` table is read again (ms); default 1 s. */
  sizeRefreshMs?: number;
}

/** `client` with prepared statements for drizzle's queries (see the module comment); changes `client` in place. */
export function preparingClient(client: postgres.Sql, options: PreparingOptions = {}): postgres.Sql {
  const sizes = sizeClasses(client.unsafe.bind(client) as Unsafe, options.sizeRefreshMs ?? 1_000);
  return prepareAlways(client, sizes);
}

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
 * The set of texts is bounded: the server never inlines values into SQL (no `sql.raw`), so texts differ only by
 * shape (optional filters, `IN` lists up to the batch limit of 500). Queries without parameters keep the simple
 * protocol (postgres.js's own rule), so `begin`, `commit` and multi-statement scripts are unaffected.
 * Transaction and savepoint handles are wrapped the same way.
 */
import type postgres from "postgres";

type AnySql = postgres.Sql | postgres.TransactionSql;
type UnsafeOptions = { prepare?: boolean };
type Callback = (sql: postgres.TransactionSql) => unknown;

function wrap<T extends AnySql>(sql: T): T {
  const unsafe = sql.unsafe.bind(sql) as (text: string, params?: unknown[], options?: UnsafeOptions) => unknown;
  const preparing = (text: string, params: unknown[] = [], options: UnsafeOptions = {}) => unsafe(text, params, { ...options, prepare: true });
  const overrides: Record<string, unknown> = { unsafe: preparing };
  if ("begin" in sql && typeof sql.begin === "function") {
    const begin = sql.begin.bind(sql) as (...args: unknown[]) => unknown;
    overrides.begin = (...args: unknown[]) => {
      const fn = args.pop() as Callback;
      return begin(...args, (tx: postgres.TransactionSql) => fn(wrap(tx)));
    };
  }
  if ("savepoint" in sql && typeof sql.savepoint === "function") {
    const savepoint = sql.savepoint.bind(sql) as (...args: unknown[]) => unknown;
    overrides.savepoint = (...args: unknown[]) => {
      const fn = args.pop() as Callback;
      return savepoint(...args, (tx: postgres.TransactionSql) => fn(wrap(tx)));
    };
  }
  // The client is a tagged-template function with properties: keep calling it, override three of them.
  return new Proxy(sql, {
    get: (target, property, receiver) => (typeof property === "string" && property in overrides ? overrides[property] : Reflect.get(target, property, receiver)),
  });
}

/** `client` with prepared statements for drizzle's queries (see the module comment). */
export function preparingClient(client: postgres.Sql): postgres.Sql {
  return wrap(client);
}

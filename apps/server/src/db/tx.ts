import type { Db } from "./open-database.js";

/** A drizzle transaction handle (same query API as `Db`). */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Either the database or an open transaction. */
export type Executor = Db | Tx;

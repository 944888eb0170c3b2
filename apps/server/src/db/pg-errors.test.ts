import { expect, test } from "bun:test";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { toErrorResponse } from "../http/errors.js";
import { isDatabaseUnavailable, isUniqueViolation } from "./pg-errors.js";

test("a closed PGlite client is an unavailable database: 503 UNAVAILABLE", async () => {
  const client = new PGlite();
  await client.waitReady;
  await client.close();
  const error = await client.query("select 1").catch((e: unknown) => e);
  expect(isDatabaseUnavailable(error)).toBe(true);
  expect(toErrorResponse(error, "req_x")).toMatchObject({ status: 503, body: { error: { code: "UNAVAILABLE", details: { reason: "database" } } } });
}, 60_000);

test("a refused PostgreSQL connection (postgres.js) is unavailable; a statement's own error is not", async () => {
  const refused = postgres("postgres://postgres@127.0.0.1:1/test", { max: 1, connect_timeout: 2, onnotice: () => {} });
  const error = await refused`select 1`.catch((e: unknown) => e);
  await refused.end({ timeout: 1 });
  expect(isDatabaseUnavailable(error)).toBe(true);
  expect(isDatabaseUnavailable(Object.assign(new Error("Failed query: select"), { cause: Object.assign(new Error("server closed the connection"), { code: "57P01" }) }))).toBe(true);
  const unique = Object.assign(new Error("duplicate key"), { code: "23505" });
  expect(isDatabaseUnavailable(unique)).toBe(false);
  expect(isUniqueViolation(unique)).toBe(true);
  expect(toErrorResponse(new Error("boom"), "req_x").status).toBe(500);
});

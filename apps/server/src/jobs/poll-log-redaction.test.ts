import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { documents } from "../db/documents.js";
import { emitBody, emitter } from "../../test/support/emission.js";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { errorMessage } from "../log.js";
import { defaultDocumentEngine } from "./default-document-engine.js";
import { createStatusPoller } from "./poll-status.js";

const SECRET = "s3cret-VALUE-8071";

// A failing query's log line carries its SQLSTATE and the names involved, never its SQL text or parameter values.
describeDrivers("worker logs of failed queries", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
  }, 60_000);
  afterAll(async () => h?.close());

  test("poll.refresh_failed logs the database error without SQL or parameters", async () => {
    const t = await emitter(h, { tipos: [33] });
    const emitted = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body: emitBody(33) });
    expect(emitted.json.data.estado).toBe("ENVIADO");
    await h.database.db.update(documents).set({ nextCheckAt: new Date(Date.now() - 1000) }).where(eq(documents.id, emitted.json.data.id));
    // The refresh runs a real statement that fails on a parameter's value.
    const failing = { ...defaultDocumentEngine, refreshDocumentStatuses: async () => {
      await h.database.db.execute(sql`select ${SECRET}::integer as n from documents where id = ${emitted.json.data.id}`);
      return new Set<string>();
    } };
    const from = h.logs.length;
    await createStatusPoller(h.deps, failing).tick();
    const line = h.logs.slice(from).find((l) => l.includes("poll.refresh_failed"));
    expect(line).toBeDefined();
    const entry = JSON.parse(line ?? "{}") as { error: string };
    expect(entry.error).toStartWith("database error 22P02: invalid input syntax for type integer");
    expect(line).not.toContain(SECRET);
    expect(line).not.toContain(emitted.json.data.id);
    expect(line?.toLowerCase()).not.toContain("select");
  }, 30_000);

  test("a constraint violation keeps the constraint's name, not the row's values", async () => {
    const failure = await h.database.db.execute(sql`insert into users (id, email, password_hash, nombre, created_at) values (${SECRET}, ${SECRET}, 'x', 'y', now()), (${SECRET}, 'b', 'x', 'y', now())`).catch((e: unknown) => e);
    const message = errorMessage(failure);
    expect(message).toStartWith("database error 23505: duplicate key value violates unique constraint");
    expect(message).toContain("users_pkey");
    expect(message).not.toContain(SECRET);
    expect(message.toLowerCase()).not.toContain("insert");
  });
});

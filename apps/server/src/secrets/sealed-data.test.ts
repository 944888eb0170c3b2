import { expect, test } from "bun:test";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { openDatabase } from "../db/open-database.js";
import * as schema from "../db/schema.js";
import { settings } from "../db/settings.js";
import { encryptSecret } from "../secrets.js";
import { warmPgliteTemplate } from "../../test/support/harness.js";
import { checkValueKey } from "./check-values-store.js";
import { columnsNotOpening, holdsSealedData, SEALED_COLUMNS } from "./sealed-data.js";

test("every sealed column of the schema (`*_enc`) is listed, so rotation re-seals it and start-up sees it", () => {
  const listed = new Set(SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`));
  const sealed = (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => value instanceof PgTable)
    .flatMap((table) => {
      const config = getTableConfig(table);
      return config.columns.filter((c) => c.name.endsWith("_enc")).map((c) => `${config.name}.${c.name}`);
    });
  expect(sealed.length).toBeGreaterThanOrEqual(5);
  for (const column of sealed) expect(listed).toContain(column);
});

test("sealed settings are told apart from plain ones (check values are not sealed data)", async () => {
  const database = await openDatabase({ databaseUrl: null, dataDir: "/nonexistent", memory: true, template: await warmPgliteTemplate() });
  try {
    const key = Buffer.alloc(32, 3);
    expect(await holdsSealedData(database.db)).toBe(false);
    await database.db.insert(settings).values([
      { key: checkValueKey("TIMBRE_MASTER_KEY"), value: "hmac-sha256.v1.c2FsdA.bWFj" },
      { key: "plain", value: "v1.not-sealed" },
    ]);
    expect(await holdsSealedData(database.db)).toBe(false);
    await database.db.insert(settings).values({ key: "sealed", value: encryptSecret(key, "x") });
    expect(await holdsSealedData(database.db)).toBe(true);
    expect(await columnsNotOpening(database.db, key)).toEqual([]);
    expect(await columnsNotOpening(database.db, Buffer.alloc(32, 4))).toEqual(["settings.value"]);
  } finally {
    await database.close();
  }
});

/** Master-key rotation's transaction over every kind of sealed value a real tenant leaves (both drivers). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { emitBody, emitter } from "../../test/support/emission.js";
import { createHarness, describeDrivers, TEST_MASTER_KEY, type Harness } from "../../test/support/harness.js";
import { rowsOf } from "../db/rows.js";
import { decryptSecret, encryptSecret } from "../secrets.js";
import { checkValue, matchesCheckValue } from "./check-value.js";
import { readCheckValues, replaceCheckValue } from "./check-values-store.js";
import { ResealRefused, resealAll } from "./reseal.js";
import { describeColumn, SEALED_COLUMNS, sealedValuesQuery } from "./sealed-data.js";

const oldKey = Buffer.from(TEST_MASTER_KEY, "base64");

async function sealedValues(h: Harness): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const c of SEALED_COLUMNS) out.set(describeColumn(c), rowsOf<{ v: string }>(await h.database.db.execute(sql.raw(sealedValuesQuery(c)))).map((r) => r.v));
  return out;
}

const opens = (key: Buffer, value: string) => {
  try {
    decryptSecret(key, value);
    return true;
  } catch {
    return false;
  }
};

describeDrivers("master-key rotation", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox" });
    await replaceCheckValue(h.database.db, "TIMBRE_MASTER_KEY", checkValue("TIMBRE_MASTER_KEY", oldKey));
    // Certificate key, CAF files and the sandbox authority; a webhook secret rotated once (current and previous);
    // a stored idempotent answer; a mailbox URL.
    const t = await emitter(h, { tipos: [33, 39] });
    const hook = await h.call("PUT", `/v1/businesses/${t.business.id}`, { token: t.user.token, body: { webhook_url: "https://hooks.example.com/timbre", intercambio: { imap_url: "imaps://facturas:clave@imap.example.com/INBOX" } } });
    expect(hook.status).toBe(200);
    expect((await h.call("POST", `/v1/businesses/${t.business.id}/webhook-secret`, { key: t.key.key })).status).toBe(200);
    const emitted = await h.call("POST", "/v1/dte/emit", { key: t.key.key, body: emitBody(33), headers: { "idempotency-key": "rotation-1" } });
    expect([201, 202]).toContain(emitted.status);
  }, 120_000);
  afterAll(() => h?.close());

  test("every sealed value opens with the new key afterwards and none with the old; the check value follows", async () => {
    const before = await sealedValues(h);
    for (const [column, values] of before) {
      expect({ column, n: values.length > 0 }).toEqual({ column, n: true });
      for (const v of values) expect(opens(oldKey, v)).toBe(true);
    }
    const plain = new Map([...before].map(([c, values]) => [c, values.map((v) => decryptSecret(oldKey, v).toString("base64")).sort()]));

    const newKey = randomBytes(32);
    const counts = await resealAll(h.database.db, oldKey, newKey);
    expect(counts).toEqual(Object.fromEntries([...before].map(([c, values]) => [c, values.length])));

    const after = await sealedValues(h);
    for (const [column, values] of after) {
      expect(values).toHaveLength(before.get(column)?.length ?? -1);
      for (const v of values) expect({ column, old: opens(oldKey, v), new: opens(newKey, v) }).toEqual({ column, old: false, new: true });
      expect(values.map((v) => decryptSecret(newKey, v).toString("base64")).sort()).toEqual(plain.get(column) ?? []);
    }
    const check = (await readCheckValues(h.database.db, ["TIMBRE_MASTER_KEY"])).get("TIMBRE_MASTER_KEY") ?? "";
    expect(matchesCheckValue(check, "TIMBRE_MASTER_KEY", newKey)).toBe(true);
    expect(matchesCheckValue(check, "TIMBRE_MASTER_KEY", oldKey)).toBe(false);

    // A value the current key cannot open stops the rotation, and nothing changes.
    await h.database.db.execute(sql`insert into settings (key, value) values ('foreign', ${encryptSecret(randomBytes(32), "x")})`);
    const thirdKey = randomBytes(32);
    const refused = await resealAll(h.database.db, newKey, thirdKey).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ResealRefused);
    expect(String((refused as Error).message)).toBe("a value in settings.value does not open with the current TIMBRE_MASTER_KEY; nothing was changed");
    const unchanged = await sealedValues(h);
    for (const [column, values] of after) expect(unchanged.get(column)?.filter((v) => values.includes(v))).toHaveLength(values.length);
    expect(matchesCheckValue((await readCheckValues(h.database.db, ["TIMBRE_MASTER_KEY"])).get("TIMBRE_MASTER_KEY") ?? "", "TIMBRE_MASTER_KEY", newKey)).toBe(true);
  }, 120_000);
});

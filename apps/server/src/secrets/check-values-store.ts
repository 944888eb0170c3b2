/** The secrets' check values in the `settings` table, one row per setting (`secret_check:<NAME>`). */
import { inArray, sql } from "drizzle-orm";
import type { Executor } from "../db/tx.js";
import { settings } from "../db/settings.js";
import type { SecretName } from "./check-value.js";

export const checkValueKey = (name: SecretName): string => `secret_check:${name}`;

export async function readCheckValues(db: Executor, names: readonly SecretName[]): Promise<Map<SecretName, string>> {
  const rows = await db.select({ key: settings.key, value: settings.value }).from(settings).where(inArray(settings.key, names.map(checkValueKey)));
  return new Map(names.flatMap((name) => rows.filter((r) => r.key === checkValueKey(name)).map((r) => [name, r.value] as const)));
}

/**
 * Stores the check values that are absent, in one statement and in a fixed order (two processes starting together
 * cannot each win one of them); rows already there are left as they are, so the caller reads them back to see whose
 * values won.
 */
export async function insertCheckValuesIfAbsent(db: Executor, values: ReadonlyMap<SecretName, string>): Promise<void> {
  const rows = [...values].sort(([a], [b]) => a.localeCompare(b)).map(([name, value]) => ({ key: checkValueKey(name), value }));
  if (rows.length > 0) await db.insert(settings).values(rows).onConflictDoNothing();
}

/** Replaces (or adds) one check value (key rotation, inside its transaction). */
export async function replaceCheckValue(db: Executor, name: SecretName, value: string): Promise<void> {
  await db
    .insert(settings)
    .values({ key: checkValueKey(name), value })
    .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value` } });
}

/**
 * Master-key rotation's one transaction: every sealed value (`sealed-data.ts`) opened with the current key and
 * sealed again under the new one, and the key's check value replaced — all of it or nothing. The sealed tables are
 * locked against writes meanwhile; values are read through a cursor, 500 at a time.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/open-database.js";
import { rowsOf } from "../db/rows.js";
import type { Executor } from "../db/tx.js";
import { decryptSecret, encryptSecret } from "../secrets.js";
import { checkValue } from "./check-value.js";
import { replaceCheckValue } from "./check-values-store.js";
import { describeColumn, SEALED_COLUMNS, sealedValuesQuery, type SealedColumn } from "./sealed-data.js";

const BATCH = 500;

/** A value that does not open with the current key: nothing was changed. */
export class ResealRefused extends Error {}

/** Re-seals everything; answers how many values each column had (`table.column` → count). */
export async function resealAll(db: Db, currentKey: Buffer, newKey: Buffer, also?: (tx: Executor) => Promise<void>): Promise<Record<string, number>> {
  return db.transaction(async (tx) => {
    const tables = [...new Set(SEALED_COLUMNS.map((c) => c.table))];
    await tx.execute(sql.raw(`lock table ${tables.map((t) => `"${t}"`).join(", ")} in exclusive mode`));
    const counts: Record<string, number> = {};
    for (const column of SEALED_COLUMNS) counts[describeColumn(column)] = await resealColumn(tx, column, currentKey, newKey);
    await replaceCheckValue(tx, "TIMBRE_MASTER_KEY", checkValue("TIMBRE_MASTER_KEY", newKey));
    await also?.(tx);
    return counts;
  });
}

async function resealColumn(tx: Executor, column: SealedColumn, currentKey: Buffer, newKey: Buffer): Promise<number> {
  // The cursor reads the values as they were when it was declared, so the rows updated below are not read again.
  await tx.execute(sql.raw(`declare timbre_reseal no scroll cursor for ${sealedValuesQuery(column)}`));
  let count = 0;
  for (;;) {
    const rows = rowsOf<{ v: string }>(await tx.execute(sql.raw(`fetch ${BATCH} from timbre_reseal`)));
    if (rows.length === 0) break;
    const pairs: SQL[] = rows.map(({ v }) => {
      let plain: Buffer;
      try {
        plain = decryptSecret(currentKey, v);
      } catch {
        throw new ResealRefused(`a value in ${describeColumn(column)} does not open with the current TIMBRE_MASTER_KEY; nothing was changed`);
      }
      return sql`(${v}, ${encryptSecret(newKey, plain)})`;
    });
    // Each sealed value is unique (random IV), so the old value itself finds its row.
    await tx.execute(sql`update ${sql.identifier(column.table)} set ${sql.identifier(column.column)} = v.n from (values ${sql.join(pairs, sql`, `)}) as v(o, n) where ${sql.identifier(column.table)}.${sql.identifier(column.column)} = v.o`);
    count += rows.length;
  }
  await tx.execute(sql.raw("close timbre_reseal"));
  return count;
}

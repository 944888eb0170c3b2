/**
 * Every place where data sealed under the master key (`encryptSecret`) is stored. Start-up asks whether a database
 * holds any (then no key may be generated for it) and tries the key on a sample; `rotate-master-key` re-seals all
 * of them. A new sealed column must be listed here (`sealed-data.test.ts` checks every `*_enc` column of the schema).
 */
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/rows.js";
import type { Executor } from "../db/tx.js";
import { decryptSecret } from "../secrets.js";

export interface SealedColumn {
  table: string;
  column: string;
  /** Which rows hold sealed values (SQL over the table's columns), when not every non-null one does. */
  where?: string;
}

/** `v1.<iv: 12 bytes>.<tag: 16 bytes>.<ciphertext>` in base64url: the shape `encryptSecret` writes. */
const SEALED_SHAPE = String.raw`^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$`;

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: "businesses", column: "certificate_key_enc" },
  { table: "businesses", column: "webhook_secret_enc" },
  { table: "businesses", column: "webhook_secret_prev_enc" },
  { table: "businesses", column: "imap_url_enc" },
  { table: "numerations", column: "caf_file_enc" },
  { table: "idempotency_keys", column: "response_body_enc" },
  // Instance-wide values (the sandbox SII's authority key): the sealed ones, whatever their key.
  { table: "settings", column: "value", where: `value ~ '${SEALED_SHAPE}'` },
];

/** `SELECT <column> FROM <table> WHERE <column> IS NOT NULL [AND where]` as SQL text (constant identifiers only). */
export function sealedValuesQuery(c: SealedColumn): string {
  return `select "${c.column}" as v from "${c.table}" where "${c.column}" is not null${c.where ? ` and (${c.where})` : ""}`;
}

export const describeColumn = (c: SealedColumn): string => `${c.table}.${c.column}`;

/** Whether any sealed value is stored. */
export async function holdsSealedData(db: Executor): Promise<boolean> {
  const query = SEALED_COLUMNS.map((c) => `select exists(${sealedValuesQuery(c)}) as e`).join(" union all ");
  return rowsOf<{ e: boolean }>(await db.execute(sql.raw(query))).some((r) => r.e === true);
}

/**
 * Opens one stored value of each sealed column with `masterKey`; returns the columns whose sample does not open
 * (empty: the key is the one the data was sealed with, or nothing is sealed).
 */
export async function columnsNotOpening(db: Executor, masterKey: Buffer): Promise<string[]> {
  const failed: string[] = [];
  for (const c of SEALED_COLUMNS) {
    const [row] = rowsOf<{ v: string }>(await db.execute(sql.raw(`${sealedValuesQuery(c)} limit 1`)));
    if (!row) continue;
    try {
      decryptSecret(masterKey, row.v);
    } catch {
      failed.push(describeColumn(c));
    }
  }
  return failed;
}

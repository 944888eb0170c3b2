/**
 * Maintenance command: rotates `TIMBRE_MASTER_KEY` (README, "Secrets"). Stop every server process on the database,
 * then, from `apps/server` with the servers' environment:
 *
 *     bun src/rotate-master-key.ts                      # a new key is generated into <data dir>/master.key.new (0600)
 *     TIMBRE_MASTER_KEY_NEW=<base64> bun src/rotate-master-key.ts   # or bring your own
 *
 * Every sealed value is opened with the current key and sealed under the new one, and the check value replaced, in
 * one transaction (`secrets/reseal.ts`). An embedded data directory whose key lives in `master.key` gets the new
 * key there; otherwise start every process with `TIMBRE_MASTER_KEY` set to the new value — a process still given
 * the old one refuses to start. `TIMBRE_JWT_SECRET_NEW`, when set, replaces the JWT secret's check value in the same
 * transaction (sessions signed with the old secret end); with `--jwt-only` that is all it does (the way to replace a
 * lost or leaked JWT secret). Values are never printed; paths are.
 */
import { renameSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { loadConfig, loadRotationConfig } from "./config.js";
import { LockedError } from "./db/lock-file.js";
import { openDatabase, type Database } from "./db/open-database.js";
import { rowsOf } from "./db/rows.js";
import { PROCESS_LOCK_CLASS } from "./liveness.js";
import { parseJwtSecret, parseMasterKey } from "./secrets.js";
import { checkValue, matchesCheckValue } from "./secrets/check-value.js";
import { readCheckValues, replaceCheckValue } from "./secrets/check-values-store.js";
import { ResealRefused, resealAll } from "./secrets/reseal.js";
import { configuredSecret, mismatchMessage, secretSpecs, SecretsRefused } from "./secrets/resolve-secrets.js";
import { columnsNotOpening, holdsSealedData } from "./secrets/sealed-data.js";
import { createSecretFile, newSecretValue, readSecretFile } from "./secrets/secret-file.js";

class Refused extends Error {}

const config = loadConfig(process.env);
const rotation = loadRotationConfig(process.env);
let database: Database | null = null;
try {
  database = await openDatabase({ databaseUrl: config.databaseUrl, prepare: false, dataDir: config.dataDir });
  await rotate(database);
  await database.close();
  process.exit(0);
} catch (error) {
  await database?.close().catch(() => {});
  if (error instanceof Refused || error instanceof SecretsRefused || error instanceof ResealRefused || error instanceof LockedError) {
    console.error(`timbre: ${error.message}`);
    process.exit(1);
  }
  throw error;
}

async function rotate(database: Database): Promise<void> {
  const { db } = database;
  if (database.driver === "postgres") {
    const [row] = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and granted and objsubid = 2 and classid::bigint = ${PROCESS_LOCK_CLASS} and database = (select oid from pg_database where datname = current_database())`,
      ),
    );
    if ((row?.n ?? 0) > 0) throw new Refused(`${row?.n} server process(es) are running on this database: stop every one before rotating TIMBRE_MASTER_KEY`);
  }

  const [masterSpec] = secretSpecs(config);
  if (!masterSpec) throw new Error("no master key spec");
  const current = configuredSecret(masterSpec);
  if (!current) throw new Refused("TIMBRE_MASTER_KEY is not set: give the current key (the one every process on this database uses) to rotate it");
  const currentKey = Buffer.from(current.bytes);
  const stored = (await readCheckValues(db, ["TIMBRE_MASTER_KEY"])).get("TIMBRE_MASTER_KEY");
  if (stored !== undefined ? !matchesCheckValue(stored, "TIMBRE_MASTER_KEY", currentKey) : (await columnsNotOpening(db, currentKey)).length > 0) {
    throw new Refused(mismatchMessage(current));
  }
  if (stored === undefined && !(await holdsSealedData(db))) {
    throw new Refused("this database holds no sealed data and no check value: nothing to rotate (are DATABASE_URL and TIMBRE_DATA_DIR the servers'?)");
  }

  const jwtText = rotation.newJwtSecret;
  const jwtSecret = jwtText === null ? null : refusing(() => parseJwtSecret(jwtText, "TIMBRE_JWT_SECRET_NEW"));
  const jwtDone = "timbre: TIMBRE_JWT_SECRET's check value replaced: start every process with TIMBRE_JWT_SECRET set to the new value (or write it into the data directory's jwt.key)";
  if (process.argv.includes("--jwt-only")) {
    if (!jwtSecret) throw new Refused("--jwt-only replaces the JWT secret's check value: set TIMBRE_JWT_SECRET_NEW to the new secret");
    await replaceCheckValue(db, "TIMBRE_JWT_SECRET", checkValue("TIMBRE_JWT_SECRET", jwtSecret));
    console.log(jwtDone);
    return;
  }

  const newPath = join(config.dataDir, "master.key.new");
  const given = rotation.newMasterKey;
  let newText = given ?? readSecretFile(newPath);
  if (newText === null) {
    const value = newSecretValue();
    newText = createSecretFile(config.dataDir, newPath, value) ? value : readSecretFile(newPath);
    console.log(`timbre: generated the new TIMBRE_MASTER_KEY into ${newPath} (mode 0600; its value is not printed)`);
  }
  if (newText === null) throw new Refused(`could not read ${newPath}`);
  const text = newText;
  const newKey = refusing(() => parseMasterKey(text, given ? "TIMBRE_MASTER_KEY_NEW" : `the new key (file ${newPath})`));
  if (newKey.equals(currentKey)) throw new Refused("the new TIMBRE_MASTER_KEY is the current one: nothing to rotate");

  const counts = await resealAll(db, currentKey, newKey, async (tx) => {
    if (jwtSecret) await replaceCheckValue(tx, "TIMBRE_JWT_SECRET", checkValue("TIMBRE_JWT_SECRET", jwtSecret));
  });
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(`timbre: re-sealed ${total} values under the new TIMBRE_MASTER_KEY (${Object.entries(counts).map(([c, n]) => `${c} ${n}`).join(", ")})`);
  if (jwtSecret) console.log(jwtDone);

  if (current.from === masterSpec.file && given === null) {
    renameSync(newPath, masterSpec.file);
    console.log(`timbre: ${masterSpec.file} now holds the new key (the old one is gone)`);
  } else {
    console.log(
      `timbre: start every process on this database with TIMBRE_MASTER_KEY set to the new value${given === null ? ` (the content of ${newPath})` : " (TIMBRE_MASTER_KEY_NEW)"}; a process given the old key refuses to start`,
    );
  }
}

/** A malformed value is a refusal (its message names the setting, never the value). */
function refusing<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new Refused((error as Error).message);
  }
}

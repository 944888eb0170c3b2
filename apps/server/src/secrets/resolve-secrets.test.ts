import { afterEach, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { drivers, warmPgliteTemplate, type Driver } from "../../test/support/harness.js";
import { openDatabase, type Database } from "../db/open-database.js";
import { settings } from "../db/settings.js";
import { loadSandboxAuthority } from "../sii/sandbox-authority.js";
import { checkValueKey } from "./check-values-store.js";
import { resolveSecrets, SecretsRefused } from "./resolve-secrets.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "timbre-resolve-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A migrated, empty database: in-memory PGlite, or a scratch PostgreSQL database. */
async function freshDatabase(driver: Driver): Promise<Database> {
  if (driver === "pglite") {
    const database = await openDatabase({ databaseUrl: null, dataDir: "/nonexistent", memory: true, template: await warmPgliteTemplate() });
    cleanups.push(() => database.close());
    return database;
  }
  const base = process.env.DATABASE_URL ?? "";
  const name = `timbre_secrets_${randomBytes(5).toString("hex")}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: "/nonexistent" });
  cleanups.push(async () => {
    await database.close();
    const again = postgres(base, { max: 1, onnotice: () => {} });
    await again.unsafe(`drop database if exists ${name} with (force)`);
    await again.end();
  });
  return database;
}

const key = () => randomBytes(32).toString("base64");
const config = (dataDir: string, masterKey: string | null = null, jwtSecret: string | null = null) => ({ dataDir, masterKey, jwtSecret });

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SecretsRefused);
  return (error as Error).message;
}

for (const driver of drivers) {
  test(`[${driver}] fresh database: both secrets generated into 0600 files with check values stored, never the secrets; read back at the next start`, async () => {
    const { db } = await freshDatabase(driver);
    const dir = tempDir();
    const first = await resolveSecrets(config(dir), db);
    expect(first.generated).toEqual([
      { setting: "TIMBRE_MASTER_KEY", path: join(dir, "master.key") },
      { setting: "TIMBRE_JWT_SECRET", path: join(dir, "jwt.key") },
    ]);
    for (const { path } of first.generated) expect(statSync(path).mode & 0o777).toBe(0o600);
    const master = readFileSync(join(dir, "master.key"), "utf8");
    const jwt = readFileSync(join(dir, "jwt.key"), "utf8");
    expect(first.secrets.masterKey.toString("base64")).toBe(master);
    const stored = (await db.select().from(settings)).map((r) => `${r.key}=${r.value}`).join("\n");
    expect(stored).toContain(checkValueKey("TIMBRE_MASTER_KEY"));
    expect(stored).toContain(checkValueKey("TIMBRE_JWT_SECRET"));
    expect(stored).not.toContain(master);
    expect(stored).not.toContain(jwt);
    expect(stored).not.toContain(Buffer.from(master, "base64").toString("base64url"));

    expect(first.adopted).toEqual([]);
    const second = await resolveSecrets(config(dir), db);
    expect(second.generated).toEqual([]);
    expect(second.adopted).toEqual([]);
    expect(second.secrets.masterKey.equals(first.secrets.masterKey)).toBe(true);
    // The same values from the environment (another process) are accepted too.
    const third = await resolveSecrets(config(tempDir(), master, jwt), db);
    expect(third.generated).toEqual([]);
  });

  test(`[${driver}] existing files in the data directory become a fresh database's secrets, and are reported as adopted`, async () => {
    const { db } = await freshDatabase(driver);
    const dir = tempDir();
    const master = key();
    await Bun.write(join(dir, "master.key"), master);
    const first = await resolveSecrets(config(dir, null, key()), db);
    expect(first.generated).toEqual([]);
    expect(first.adopted).toEqual([{ setting: "TIMBRE_MASTER_KEY", path: join(dir, "master.key") }]);
    expect(first.secrets.masterKey.toString("base64")).toBe(master);
    expect((await resolveSecrets(config(dir, null, null), db).catch((e: Error) => e.message)) as string).toStartWith("TIMBRE_JWT_SECRET is not set");
  });

  test(`[${driver}] a secret that does not match the check value refuses, naming the setting and never the value`, async () => {
    const { db } = await freshDatabase(driver);
    const [master, jwt] = [key(), key()];
    await resolveSecrets(config(tempDir(), master, jwt), db);
    const wrongMaster = key();
    const m = await refusal(resolveSecrets(config(tempDir(), wrongMaster, jwt), db));
    expect(m).toStartWith("TIMBRE_MASTER_KEY does not match the key this database's sealed data was written with");
    expect(m).not.toContain(wrongMaster);
    const wrongJwt = key();
    const j = await refusal(resolveSecrets(config(tempDir(), master, wrongJwt), db));
    expect(j).toStartWith("TIMBRE_JWT_SECRET does not match");
    expect(j).not.toContain(wrongJwt);
    // A wrong key in the data directory's file is named with its path.
    const dir = tempDir();
    await Bun.write(join(dir, "master.key"), key());
    expect(await refusal(resolveSecrets(config(dir, null, jwt), db))).toContain(`the file ${join(dir, "master.key")}`);
  });

  test(`[${driver}] no secret configured for a database that has check values: refused, naming the setting; nothing generated`, async () => {
    const { db } = await freshDatabase(driver);
    const jwt = key();
    await resolveSecrets(config(tempDir(), key(), jwt), db);
    const dir = tempDir();
    expect(await refusal(resolveSecrets(config(dir, null, jwt), db))).toStartWith("TIMBRE_MASTER_KEY is not set, and this database already holds the check values of its secrets");
    expect(await refusal(resolveSecrets(config(dir, key(), null), db))).toStartWith("TIMBRE_JWT_SECRET is not set");
    expect(existsSync(join(dir, "master.key")) || existsSync(join(dir, "jwt.key"))).toBe(false);
  });

  test(`[${driver}] sealed data written before check values existed: the right key is adopted, a wrong or missing one refused`, async () => {
    const database = await freshDatabase(driver);
    const master = key();
    await loadSandboxAuthority(database.db, Buffer.from(master, "base64")); // a sealed value, and no check value
    const noKey = await refusal(resolveSecrets(config(tempDir()), database.db));
    expect(noKey).toStartWith("TIMBRE_MASTER_KEY is not set, and this database already holds data sealed with a master key");
    const wrong = await refusal(resolveSecrets(config(tempDir(), key(), key()), database.db));
    expect(wrong).toStartWith("TIMBRE_MASTER_KEY does not match");
    expect(wrong).toContain("settings.value");
    expect(await database.db.select().from(settings)).toHaveLength(1); // nothing stored by the refused starts
    const jwt = key();
    const ok = await resolveSecrets(config(tempDir(), master, jwt), database.db);
    expect(ok.generated).toEqual([]);
    // From now on the check value decides, also for a key that would open no sealed value.
    expect(await refusal(resolveSecrets(config(tempDir(), key(), jwt), database.db))).toStartWith("TIMBRE_MASTER_KEY does not match");
  });

  test(`[${driver}] two processes generating at once on a fresh database: one's secrets are kept, the other refuses and removes its files`, async () => {
    const { db } = await freshDatabase(driver);
    const [dirA, dirB] = [tempDir(), tempDir()];
    const results = await Promise.allSettled([resolveSecrets(config(dirA), db), resolveSecrets(config(dirB), db)]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]?.reason).toBeInstanceOf(SecretsRefused);
    expect(String(lost[0]?.reason.message)).toMatch(/^TIMBRE_MASTER_KEY: another process started on this database at the same moment|^TIMBRE_MASTER_KEY is not set/);
    const loserDir = results[0]?.status === "rejected" ? dirA : dirB;
    const winnerDir = loserDir === dirA ? dirB : dirA;
    expect(existsSync(join(loserDir, "master.key")) || existsSync(join(loserDir, "jwt.key"))).toBe(false);
    // The winner's files are the database's secrets.
    const again = await resolveSecrets(config(tempDir(), readFileSync(join(winnerDir, "master.key"), "utf8"), readFileSync(join(winnerDir, "jwt.key"), "utf8")), db);
    expect(again.generated).toEqual([]);
  });

  test(`[${driver}] processes given the same secrets and starting at once all start`, async () => {
    const { db } = await freshDatabase(driver);
    const [master, jwt] = [key(), key()];
    const results = await Promise.all([1, 2, 3].map(() => resolveSecrets(config(tempDir(), master, jwt), db)));
    for (const r of results) expect(r.secrets.masterKey.toString("base64")).toBe(master);
  });
}

test("a malformed secret is refused naming the setting", async () => {
  const { db } = await freshDatabase("pglite");
  expect(await refusal(resolveSecrets(config(tempDir(), "c2hvcnQ=", key()), db))).toBe("TIMBRE_MASTER_KEY must be 32 bytes, base64-encoded");
  expect(await refusal(resolveSecrets(config(tempDir(), key(), "short"), db))).toBe("TIMBRE_JWT_SECRET must be at least 32 characters");
});

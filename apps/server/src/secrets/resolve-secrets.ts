/**
 * One set of secrets per database (API.md §14). At start, each of `TIMBRE_MASTER_KEY` and `TIMBRE_JWT_SECRET` is
 * taken from the environment, else from its file in the data directory (`master.key`, `jwt.key`), and checked
 * against the check value the database keeps (`check-value.ts`):
 *
 * - a secret that does not match refuses the start, naming the setting;
 * - a database with sealed data but no check value yet (made before check values existed) has the master key
 *   tried on a sample of that data instead, and then gets its check values;
 * - a secret that is not configured is generated into the data directory (0600) only when the database holds no
 *   sealed data and no check value — an embedded data directory's first start, or a PostgreSQL database's first
 *   process; otherwise the start is refused, naming the setting. A PostgreSQL database's generated secrets must
 *   then be given to every other process on it (the caller prints the files' paths, never the values);
 * - two processes starting together on a fresh database: the check values are inserted only where absent and
 *   read back, so the one whose values were not kept refuses (and removes the files it generated).
 */
import { join } from "node:path";
import type { Config } from "../config.js";
import type { Db } from "../db/open-database.js";
import { parseJwtSecret, parseMasterKey, type Secrets } from "../secrets.js";
import { checkValue, matchesCheckValue, type SecretName } from "./check-value.js";
import { insertCheckValuesIfAbsent, readCheckValues } from "./check-values-store.js";
import { columnsNotOpening, holdsSealedData } from "./sealed-data.js";
import { createSecretFile, newSecretValue, readSecretFile, removeSecretFile } from "./secret-file.js";

/** A start refused because of a secret; the message names the setting and never holds a value. */
export class SecretsRefused extends Error {}

export interface GeneratedSecret {
  setting: SecretName;
  path: string;
}

export interface ResolvedSecrets {
  secrets: Secrets;
  /** Files written now (to say once, at start, where they are and that other processes need the same values). */
  generated: GeneratedSecret[];
  /**
   * Secrets read from an existing file whose check values this process stored first: the database's secrets are now
   * that file's values, which every other process needs too (say where they are).
   */
  adopted: GeneratedSecret[];
}

interface Spec {
  name: SecretName;
  configured: string | null;
  file: string;
}

/** Where one secret's value came from. */
export interface SecretSource {
  name: SecretName;
  text: string;
  bytes: Uint8Array;
  /** `environment`, or the file's path. */
  from: string;
}

const NAMES: readonly SecretName[] = ["TIMBRE_MASTER_KEY", "TIMBRE_JWT_SECRET"];

export function secretSpecs(config: Pick<Config, "dataDir" | "masterKey" | "jwtSecret">): Spec[] {
  return [
    { name: "TIMBRE_MASTER_KEY", configured: config.masterKey, file: join(config.dataDir, "master.key") },
    { name: "TIMBRE_JWT_SECRET", configured: config.jwtSecret, file: join(config.dataDir, "jwt.key") },
  ];
}

/** The secret from the environment or its file; null when neither has it. Throws when malformed. */
export function configuredSecret(spec: Spec): SecretSource | null {
  const fromEnv = spec.configured;
  const text = fromEnv ?? readSecretFile(spec.file);
  if (text === null) return null;
  return { name: spec.name, text, bytes: parseSecret(spec.name, text, fromEnv === null ? spec.file : null), from: fromEnv === null ? spec.file : "environment" };
}

function parseSecret(name: SecretName, text: string, file: string | null): Uint8Array {
  const setting = file === null ? name : `${name} (file ${file})`;
  try {
    return name === "TIMBRE_MASTER_KEY" ? parseMasterKey(text, setting) : parseJwtSecret(text, setting);
  } catch (error) {
    throw new SecretsRefused((error as Error).message);
  }
}

export function mismatchMessage(source: SecretSource): string {
  const what =
    source.name === "TIMBRE_MASTER_KEY"
      ? "the key this database's sealed data was written with"
      : "the secret the other processes on this database sign sessions with";
  const from = source.from === "environment" ? "the environment" : `the file ${source.from}`;
  return (
    `${source.name} does not match ${what} (its check value in the settings table). ` +
    `Every process on one database needs the same ${source.name}: set it to the value the other processes use (this one came from ${from}).`
  );
}

function notSetMessage(name: SecretName, holds: string): string {
  return (
    `${name} is not set, and this database already holds ${holds}: ` +
    `set ${name} to the value every other process on this database uses (a new one would ${name === "TIMBRE_MASTER_KEY" ? "leave that data unreadable" : "invalidate their sessions"}).`
  );
}

export async function resolveSecrets(config: Pick<Config, "dataDir" | "masterKey" | "jwtSecret">, db: Db): Promise<ResolvedSecrets> {
  const specs = secretSpecs(config);
  const stored = await readCheckValues(db, NAMES);
  const sealed = await holdsSealedData(db);

  const sources = new Map<SecretName, SecretSource>();
  const toGenerate: Spec[] = [];
  for (const spec of specs) {
    const source = configuredSecret(spec);
    if (source) sources.set(spec.name, source);
    else if (stored.size > 0 || sealed) throw new SecretsRefused(notSetMessage(spec.name, sealed ? "data sealed with a master key" : "the check values of its secrets"));
    else toGenerate.push(spec);
  }

  for (const source of sources.values()) {
    const check = stored.get(source.name);
    if (check !== undefined && !matchesCheckValue(check, source.name, source.bytes)) throw new SecretsRefused(mismatchMessage(source));
  }
  const master = sources.get("TIMBRE_MASTER_KEY");
  if (master && !stored.has("TIMBRE_MASTER_KEY") && sealed) {
    const failed = await columnsNotOpening(db, Buffer.from(master.bytes));
    if (failed.length > 0) throw new SecretsRefused(`${mismatchMessage(master)} Sealed values it cannot open: ${failed.join(", ")}.`);
  }

  // Generate what is missing: the file first (a process sharing the directory may have just written it: adopt it).
  const generated: GeneratedSecret[] = [];
  for (const spec of toGenerate) {
    const value = newSecretValue();
    if (createSecretFile(config.dataDir, spec.file, value)) generated.push({ setting: spec.name, path: spec.file });
    const source = configuredSecret(spec);
    if (!source) throw new SecretsRefused(`${spec.name}: could not read the file ${spec.file} just written`);
    sources.set(spec.name, source);
  }

  const adopted: GeneratedSecret[] = [];
  const missing = new Map(NAMES.filter((n) => !stored.has(n)).map((n) => [n, checkValue(n, sourceOf(sources, n).bytes)] as const));
  if (missing.size > 0) {
    await insertCheckValuesIfAbsent(db, missing);
    const kept = await readCheckValues(db, NAMES);
    for (const name of missing.keys()) {
      const source = sourceOf(sources, name);
      const check = kept.get(name);
      if (check !== undefined && matchesCheckValue(check, name, source.bytes)) {
        if (source.from !== "environment" && !generated.some((g) => g.setting === name)) adopted.push({ setting: name, path: source.from });
        continue;
      }
      // Only the files whose values were not kept go: one whose check value this process stored stays the database's.
      const lost = generated.filter((g) => {
        const value = kept.get(g.setting);
        return value === undefined || !matchesCheckValue(value, g.setting, sourceOf(sources, g.setting).bytes);
      });
      for (const g of lost) removeSecretFile(g.path);
      const mine = lost.find((g) => g.setting === name);
      if (mine) {
        throw new SecretsRefused(
          `${name}: another process started on this database at the same moment and its ${name} was kept; the one generated here was removed (${mine.path}). ` +
            `Set ${name} to the other process's value (it printed the path of its file) and start again.`,
        );
      }
      throw new SecretsRefused(mismatchMessage(source));
    }
  }

  const masterKey = Buffer.from(sourceOf(sources, "TIMBRE_MASTER_KEY").bytes);
  return { secrets: { masterKey, jwtSecret: sourceOf(sources, "TIMBRE_JWT_SECRET").bytes }, generated, adopted };
}

function sourceOf(sources: Map<SecretName, SecretSource>, name: SecretName): SecretSource {
  const source = sources.get(name);
  if (!source) throw new Error(`${name}: no value resolved`);
  return source;
}

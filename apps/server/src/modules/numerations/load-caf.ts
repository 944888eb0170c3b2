/**
 * The CAF of a numeration with its private key, for timbring: the sealed file decrypted and parsed once per
 * process (numerations never change their CAF, ids are never reused).
 */
import { parseCaf, type Caf } from "@timbre/core/caf";
import { eq } from "drizzle-orm";
import { numerations, type NumerationRow } from "../../db/numerations.js";
import type { Deps } from "../../deps.js";
import { notFound } from "../../http/errors.js";
import { decryptSecret } from "../../secrets.js";

const cache = new Map<string, Caf>();

export async function loadCaf(deps: Deps, numerationId: string): Promise<Caf> {
  const cached = cache.get(numerationId);
  if (cached) return cached;
  const [row] = await deps.db
    .select({ id: numerations.id, cafFileEnc: numerations.cafFileEnc })
    .from(numerations)
    .where(eq(numerations.id, numerationId));
  if (!row) throw notFound("numeration");
  return cafFromRow(deps, row);
}

/** Same cache, from a row already read (e.g. inside a transaction, where `deps.db` must not be used). */
export function cafFromRow(deps: Pick<Deps, "secrets">, row: Pick<NumerationRow, "id" | "cafFileEnc">): Caf {
  let caf = cache.get(row.id);
  if (!caf) {
    caf = parseCaf(new Uint8Array(decryptSecret(deps.secrets.masterKey, row.cafFileEnc)));
    cache.set(row.id, caf);
  }
  return caf;
}

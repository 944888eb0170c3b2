/**
 * `issuerOf(deps, rut, environment)`: the one lookup in the SII's list of authorised electronic issuers (API.md §14)
 * that deliveries (§11: the receiver's *correo de intercambio*), answers (§12: the emisor's) and `GET /issuers/{rut}`
 * use. In sandbox mode the `test` list is the sandbox's: the businesses of this Timbre, each with its Timbre
 * intercambio address; the published file (`SII_ISSUERS_FILE`, `deps.issuers`) answers for the RUTs it does not hold,
 * and is the whole list in certificación and producción.
 */
import { and, eq, isNull } from "drizzle-orm";
import { tryParseRut } from "@timbre/core/rut";
import type { Environment } from "../../db/api-keys.js";
import { businesses } from "../../db/businesses.js";
import type { Deps } from "../../deps.js";
import { resolutionOf } from "../dte/resolution.js";
import { intercambioEmail } from "../received/intercambio-address.js";
import type { Issuer } from "./issuer-file.js";

/** The sandbox's list: the oldest live business of this Timbre with that RUT. */
async function sandboxIssuer(deps: Deps, rut: string): Promise<Issuer | null> {
  const [row] = await deps.db
    .select()
    .from(businesses)
    .where(and(eq(businesses.rut, rut), isNull(businesses.deletedAt)))
    .orderBy(businesses.createdAt)
    .limit(1);
  if (!row) return null;
  return { rut: row.rut, razonSocial: row.razonSocial, resolucion: resolutionOf(row, "test", null), correoIntercambio: await intercambioEmail(deps, row) };
}

/** The listed issuer with that RUT in `environment`, or null (not listed, or not a RUT). */
export async function issuerOf(deps: Deps, rut: string, environment: Environment): Promise<Issuer | null> {
  const parsed = tryParseRut(rut);
  if (!parsed) return null;
  const canonical = `${parsed.body}-${parsed.dv}`;
  if (deps.config.siiMode === "sandbox" && environment === "test") {
    const own = await sandboxIssuer(deps, canonical);
    if (own) return own;
  }
  return deps.issuers[environment]?.lookup(canonical) ?? null;
}

/** The listed *correo de intercambio* of `rut`, or null. */
export async function listedIntercambioEmail(deps: Deps, rut: string, environment: Environment): Promise<string | null> {
  return (await issuerOf(deps, rut, environment))?.correoIntercambio ?? null;
}

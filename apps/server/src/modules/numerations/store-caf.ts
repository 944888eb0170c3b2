/**
 * The one way a CAF becomes a numeration (uploads and sandbox issuing alike, API.md §6.4): safe parse, the
 * authority's signature for the environment, RSASK ↔ RSAPK, RE = the business RUT, a supported TD, then — under a
 * lock on the business row, so concurrent uploads cannot both pass — no duplicate and no overlap with a range of
 * the same tipo. Stores the public CAF element and the whole file sealed under the master key.
 */
import { parseCaf, verifyCaf, cafExpiresOn, type Caf } from "@timbre/core/caf";
import { TimbreError } from "@timbre/core/errors";
import { normalizeRut } from "@timbre/core/rut";
import { and, eq, gte, lte } from "drizzle-orm";
import type { Environment } from "../../db/api-keys.js";
import { businesses } from "../../db/businesses.js";
import { numerations, type NumerationRow } from "../../db/numerations.js";
import { isUniqueViolation } from "../../db/pg-errors.js";
import type { Deps } from "../../deps.js";
import { ApiError } from "../../http/errors.js";
import { newId } from "../../ids.js";
import { encryptSecret } from "../../secrets.js";
import { SUPPORTED_TIPOS } from "./schemas.js";

export interface CafTarget {
  businessId: string;
  /** The business RUT (any writing). */
  rut: string;
  environment: Environment;
}

export async function storeCaf(deps: Deps, target: CafTarget, file: Uint8Array): Promise<NumerationRow> {
  const caf = await checkCaf(deps, target, file);
  const overlap = and(
    eq(numerations.businessId, target.businessId),
    eq(numerations.environment, target.environment),
    eq(numerations.tipo, caf.tipo),
    lte(numerations.desde, caf.hasta),
    gte(numerations.hasta, caf.desde),
  );
  try {
    return await deps.db.transaction(async (tx) => {
      await tx.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, target.businessId)).for("update");
      const [existing] = await tx.select().from(numerations).where(overlap).limit(1);
      if (existing) throw conflict(caf, existing);
      const [row] = await tx
        .insert(numerations)
        .values({
          id: newId("numeration"),
          businessId: target.businessId,
          environment: target.environment,
          tipo: caf.tipo,
          desde: caf.desde,
          hasta: caf.hasta,
          siguiente: caf.desde,
          fechaAutorizacion: caf.fechaAutorizacion,
          venceEl: cafExpiresOn(caf),
          idk: caf.idk,
          cafXml: caf.cafXml,
          cafFileEnc: encryptSecret(deps.secrets.masterKey, file),
          createdAt: deps.now(),
        })
        .returning();
      if (!row) throw new Error("insert returned nothing");
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("CONFLICT", "a CAF starting at this folio is already stored", { reason: "overlap" });
    throw error;
  }
}

async function checkCaf(deps: Deps, target: CafTarget, file: Uint8Array): Promise<Caf> {
  if (file.byteLength === 0) throw new ApiError("CAF_INVALID", "the file is empty", { reason: "malformed" });
  const caf = parseCaf(file);
  const gateway = await deps.sii();
  try {
    verifyCaf(caf, gateway.authorities(target.environment));
  } catch (error) {
    const other: Environment = target.environment === "test" ? "live" : "test";
    if (isReason(error, "unknown_authority") && gateway.authorities(other).some((a) => a.idk === caf.idk)) {
      throw new ApiError("CAF_INVALID", `this CAF (IDK ${caf.idk}) belongs to the ${other} environment, not ${target.environment}`, {
        reason: "wrong_environment",
        idk: caf.idk,
        environment: target.environment,
      });
    }
    throw error;
  }
  if (normalizeRut(caf.rut) !== normalizeRut(target.rut)) {
    throw new ApiError("CAF_INVALID", `the CAF was issued to ${caf.rut}, not to this business`, { reason: "rut_mismatch", rut: caf.rut });
  }
  if (!(SUPPORTED_TIPOS as readonly number[]).includes(caf.tipo)) {
    throw new ApiError("CAF_INVALID", `document type ${caf.tipo} is not supported`, { reason: "unsupported_tipo", tipo: caf.tipo });
  }
  return caf;
}

function isReason(error: unknown, reason: string): boolean {
  return error instanceof TimbreError && error.details?.reason === reason;
}

function conflict(caf: Caf, existing: NumerationRow): ApiError {
  const duplicate = existing.desde === caf.desde && existing.hasta === caf.hasta;
  return new ApiError(
    "CONFLICT",
    duplicate ? "this CAF was already uploaded" : `folios ${caf.desde}–${caf.hasta} overlap the stored range ${existing.desde}–${existing.hasta}`,
    { reason: duplicate ? "duplicate" : "overlap", numeration_id: existing.id },
  );
}

/**
 * ONE transaction per document: take the folio, timbre and sign, store the document (PENDIENTE, exact signed
 * bytes) and its first history row. A folio therefore never exists without its document: if anything fails, the
 * folio increment rolls back with it.
 */
import { buildSignedDte, encodeLatin1 } from "@timbre/core/xml";
import { documentHistory, documents, type DocumentRow } from "../../db/documents.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { isUniqueViolation } from "../../db/pg-errors.js";
import { ApiError } from "../../http/errors.js";
import { linkIdempotentResource, type IdempotencyRecord } from "../../http/idempotency.js";
import { newId } from "../../ids.js";
import { allocateFolio } from "../numerations/allocate-folio.js";
import { chileDate, chileTimestamp } from "./chile-time.js";
import type { PreparedEmission } from "./prepare-emission.js";
import { resolutionOf } from "./prepare-emission.js";
import { signingIdentityOf } from "./signing-identity.js";
import type { StoredComputation } from "./stored-document.js";

/** The Idempotency-Key record of the request, linked to the document in the same transaction (crash safety). */
export type { IdempotencyRecord } from "../../http/idempotency.js";

export async function createDocument(
  deps: Deps,
  scope: BusinessScope,
  prepared: PreparedEmission,
  idempotency: IdempotencyRecord = null,
): Promise<DocumentRow> {
  const identity = signingIdentityOf(deps, prepared.business);
  const now = deps.now();
  try {
    return await insertSigned(deps, scope, prepared, identity, now, idempotency);
  } catch (error) {
    // Two annulments of one document racing: the partial unique index lets only one through.
    if (prepared.annulsDocumentId && isUniqueViolation(error)) {
      throw new ApiError("REFERENCE_INVALID", "the document was already annulled", { reason: "already_annulled" });
    }
    throw error;
  }
}

async function insertSigned(
  deps: Deps,
  scope: BusinessScope,
  prepared: PreparedEmission,
  identity: ReturnType<typeof signingIdentityOf>,
  now: Date,
  idempotency: IdempotencyRecord,
): Promise<DocumentRow> {
  return deps.db.transaction(async (tx) => {
    const { numerationId, folio, caf } = await allocateFolio(tx, deps, {
      businessId: scope.businessId,
      environment: scope.environment,
      tipo: prepared.input.tipo,
      today: chileDate(now),
    });
    const input = { ...prepared.input, folio };
    const signed = buildSignedDte({ input, totals: prepared.totals, caf, identity: identity.identity, timestamp: chileTimestamp(now) });
    const computed: StoredComputation = { input, totals: prepared.totals, resolution: resolutionOf(prepared.business, scope.environment, identity) };
    const id = newId("document");
    const [row] = await tx
      .insert(documents)
      .values({
        id,
        businessId: scope.businessId,
        environment: scope.environment,
        numerationId,
        tipo: input.tipo,
        folio,
        fecha: input.fecha,
        fechaEmision: now,
        receptorRut: input.receiver.rut,
        receptorRazonSocial: input.receiver.razonSocial || null,
        montoNeto: prepared.totals.montoNeto,
        montoExento: prepared.totals.montoExento,
        montoIva: prepared.totals.montoIva,
        montoTotal: prepared.totals.montoTotal,
        estado: "PENDIENTE",
        request: prepared.request as unknown as Record<string, unknown>,
        computed: computed as unknown as Record<string, unknown>,
        xml: encodeLatin1(signed.xml),
        ted: signed.ted,
        // The emission request uploads it now; the dispatcher looks only after the request's budget.
        nextCheckAt: new Date(now.getTime() + deps.config.emitBudgetMs + 5_000),
        annulsDocumentId: prepared.annulsDocumentId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error("document insert returned nothing");
    // Independent of each other once the document exists: sent together (pipelined on the connection).
    await Promise.all([
      tx.insert(documentHistory).values({ id: newId("history"), documentId: id, estado: "PENDIENTE", at: now, detalle: "firmado, pendiente de envío al SII" }),
      linkIdempotentResource(tx, idempotency, id),
    ]);
    return row;
  });
}

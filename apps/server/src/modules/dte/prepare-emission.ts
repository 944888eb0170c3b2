/**
 * Everything an emission checks before it takes a folio: the body (one 422 with every problem), the certificate
 * (CERTIFICATE_REQUIRED / CERTIFICATE_INVALID), live authorisation (BUSINESS_NOT_AUTHORIZED), references
 * (REFERENCE_INVALID, default CodRef) and the totals.
 */
import type { DocumentInput, Issuer } from "@timbre/core";
import { normalizeRut } from "@timbre/core/rut";
import type { Totals } from "@timbre/core/totals";
import type { BusinessRow } from "../../db/businesses.js";
import { readBusinessRow } from "../businesses/business-row.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { ApiError, notFound } from "../../http/errors.js";
import { readEmitRequest, type ResolvedRequest } from "./read-emit-request.js";
import { resolutionOf } from "./resolution.js";
import { resolveReferences } from "./resolve-references.js";
import { signingIdentityOf, type SigningIdentityInfo } from "./signing-identity.js";
import { columnTotalsOf, toTipoInput } from "./tipo-inputs.js";
import { issuerOf } from "./to-document-input.js";

export interface PreparedEmission {
  business: BusinessRow;
  issuer: Issuer;
  /** The request with `fecha` and every reference's `codigo` resolved (stored as the document's request). */
  request: ResolvedRequest;
  /** Core input with a placeholder folio (1); a 46, 43 or export carries its own input type (`tipo-inputs.ts`). */
  input: DocumentInput;
  /** The classic totals, or a 46's, 43's or export's amounts in that shape (`columnTotalsOf`). */
  totals: Totals;
  annulsDocumentId: string | null;
}

/** The scope's business, live: the row its API key brought (read with the key, this request), else read now. */
export async function loadScopeBusiness(deps: Deps, scope: BusinessScope): Promise<BusinessRow> {
  const business = scope.business ?? (await readBusinessRow(deps, scope.businessId));
  if (!business || business.deletedAt !== null) throw notFound("business");
  return business;
}

export { resolutionOf } from "./resolution.js";

/** Live emission needs resolution data and an SII backend for `live`. */
export async function assertAuthorized(deps: Deps, business: BusinessRow, scope: BusinessScope): Promise<void> {
  if (scope.environment !== "live") return;
  if (resolutionOf(business, "live", null) === null) {
    throw new ApiError("BUSINESS_NOT_AUTHORIZED", "live emission needs the business's production SII resolution (resolucion.numero above 0 and resolucion.fecha)");
  }
  const gateway = await deps.sii();
  if (gateway.backend("live") === null) {
    throw new ApiError("BUSINESS_NOT_AUTHORIZED", `this server has no SII backend for live emission (SII_MODE=${deps.config.siiMode})`);
  }
}

/**
 * `preview: true` skips what only matters to a real emission (certificate, authorisation) but still resolves
 * references so that the previewed totals and CodRef are those the emission would use.
 */
export interface PrepareOptions {
  preview?: boolean;
  /** The scope's business as `loadScopeBusiness` returned it for this request (a batch reads it once for all items). */
  business?: BusinessRow;
}

export async function prepareEmission(deps: Deps, scope: BusinessScope, body: unknown, options: PrepareOptions = {}): Promise<PreparedEmission> {
  const business = options.business ?? (await loadScopeBusiness(deps, scope));
  const issuer = issuerOf(business);
  const read = readEmitRequest(body, issuer, deps.now());
  // An export's foreign buyer has no RUT in the request (55555555-5 is written for it).
  const parsed: ResolvedRequest = read.receptor.rut === undefined ? read : { ...read, receptor: { ...read.receptor, rut: normalizeRut(read.receptor.rut) } };
  if (!options.preview) {
    signingIdentityOf(deps, business);
    await assertAuthorized(deps, business, scope);
  }
  const draft = columnTotalsOf(toTipoInput(parsed, issuer, 1));
  const { referencias, annulsDocumentId } = await resolveReferences(deps.db, scope, parsed, draft.montoTotal);
  const request: ResolvedRequest = { ...parsed, referencias };
  delete request.referencia;
  const input = toTipoInput(request, issuer, 1);
  return { business, issuer, request, input: input as DocumentInput, totals: columnTotalsOf(input), annulsDocumentId };
}

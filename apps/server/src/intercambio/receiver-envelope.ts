/**
 * The `EnvioDTE` a business receiver gets (API.md §11, BRIEF-intercambio §1.1): the stored signed DTE bytes unchanged,
 * inside an envelope whose `Caratula/RutReceptor` is the receiver (`55555555-5` for exports), with its own `SetDTE`
 * signature by the issuer's certificate.
 */
import { buildEnvelope, decodeLatin1 } from "@timbre/core";
import { eq } from "drizzle-orm";
import type { BusinessRow } from "../db/businesses.js";
import { documents, type DocumentRow } from "../db/documents.js";
import type { Deps } from "../deps.js";
import { readBusinessRow } from "../modules/businesses/business-row.js";
import { chileTimestamp } from "../modules/dte/chile-time.js";
import { resolutionOf } from "../modules/dte/prepare-emission.js";
import { signingIdentityOf } from "../modules/dte/signing-identity.js";

export const EXPORT_TIPOS: ReadonlySet<number> = new Set([110, 111, 112]);
const FOREIGN_RECEIVER = "55555555-5";

/** The RUT the receiver envelope is addressed to. */
export const envelopeReceiverOf = (doc: Pick<DocumentRow, "tipo" | "receptorRut">): string => (EXPORT_TIPOS.has(doc.tipo) ? FOREIGN_RECEIVER : doc.receptorRut);

/** The envelope's text (ISO-8859-1 characters) for a document row of `business`. */
export function buildReceiverEnvelope(deps: Deps, business: BusinessRow, doc: Pick<DocumentRow, "tipo" | "receptorRut" | "xml" | "environment">): string {
  const signer = signingIdentityOf(deps, business);
  const resolution = resolutionOf(business, doc.environment, signer);
  if (resolution === null) throw new Error("no SII resolution for a live envelope");
  return buildEnvelope({
    kind: "EnvioDTE",
    rutEmisor: business.rut,
    rutEnvia: signer.identity.holderRut ?? business.rut,
    rutReceptor: envelopeReceiverOf(doc),
    resolution,
    dtes: [decodeLatin1(doc.xml)],
    identity: signer.identity,
    timestamp: chileTimestamp(deps.now()),
  });
}

/** `buildReceiverEnvelope` of a stored document by id. */
export async function receiverEnvelopeOf(deps: Deps, documentId: string): Promise<string> {
  const [doc] = await deps.db.select().from(documents).where(eq(documents.id, documentId));
  if (!doc) throw new Error(`document ${documentId} not found`);
  const business = await readBusinessRow(deps, doc.businessId);
  if (!business) throw new Error(`business ${doc.businessId} not found`);
  return buildReceiverEnvelope(deps, business, doc);
}

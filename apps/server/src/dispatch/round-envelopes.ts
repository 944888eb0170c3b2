/**
 * The envelopes of an emission round stored in one statement (`modules/dte/store-forecast-round.ts`): built and
 * signed from the documents signed ahead, before the statement, so that the statement stores each envelope
 * (`uploading`) with its documents already in it — the durable record that an upload may follow (BRIEF §8
 * UPLOAD_UNKNOWN), as `store-held-envelope.ts` writes it for the general path — and the upload starts as soon as it
 * commits (`uploadRoundEnvelopes`), without a claim statement of its own. One envelope per business, environment
 * and kind of the round. An envelope is stored only when every folio run of its documents is (a document whose
 * forecast failed is signed again, so an envelope carrying its old bytes must not exist); documents outside a stored
 * envelope take the general path (`submit-documents.ts`).
 */
import type { BusinessRow } from "../db/businesses.js";
import { storedEnvelope, type StoredEnvelope } from "../db/envelope-layout.js";
import type { DocumentRow } from "../db/documents.js";
import type { Deps } from "../deps.js";
import { newId } from "../ids.js";
import { envelopeKindOf, openSiiSession, type SiiSession } from "./sii-session.js";
import { byTipoAndFolio, envelopeBytes, groupKeyOf, maxEnvelopeDocuments, parseGroupKey, type ClaimedDocument, type GroupKey } from "./upload-envelope.js";

export interface RoundEnvelope {
  id: string;
  group: GroupKey;
  session: SiiSession;
  /** Its documents as claimed, in the envelope's order (tipo, folio). */
  documents: ClaimedDocument[];
  bytes: Uint8Array;
  stored: StoredEnvelope;
  /** The folio runs (the round statement's groups) its documents come from. */
  runs: number[];
}

/**
 * A document of the round: its row as it will be stored, its folio run, the business row it was signed with, and
 * its C14N inside an envelope (`SignedDte.envelopeC14n`).
 */
export interface RoundDocument {
  row: Pick<DocumentRow, "id" | "businessId" | "environment" | "tipo" | "folio" | "xml">;
  run: number;
  business: BusinessRow;
  envelopeC14n?: string;
}

/**
 * One signed envelope per business/environment/kind of `docs`. A group is left out (its documents then go the
 * general way) when its documents were signed with different versions of the business row, or when its envelope
 * cannot be built now (no certificate for a live envelope, say: the general path records why).
 */
export async function buildRoundEnvelopes(deps: Deps, docs: readonly RoundDocument[]): Promise<RoundEnvelope[]> {
  const byGroup = new Map<string, RoundDocument[]>();
  for (const doc of docs) {
    const key = groupKeyOf({ businessId: doc.row.businessId, environment: doc.row.environment, kind: envelopeKindOf(doc.row.tipo) });
    const list = byGroup.get(key);
    if (list) list.push(doc);
    else byGroup.set(key, [doc]);
  }
  // Built at once, not one after the other: each envelope's signature is a round trip to a signing thread, and a
  // round of facturas and boletas has two envelopes on its path to the database.
  const built = await Promise.all(
    [...byGroup].map(async ([key, list]): Promise<RoundEnvelope | null> => {
      const group = parseGroupKey(key);
      const business = (list[0] as RoundDocument).business;
      if (list.length > maxEnvelopeDocuments(group.kind) || list.some((d) => d.business.updatedAt.getTime() !== business.updatedAt.getTime())) return null;
      try {
        const session = await openSiiSession(deps, group.businessId, group.environment, business);
        const documents = list.map(({ row, envelopeC14n }): ClaimedDocument => ({ ...row, estado: "PENDIENTE", checkAttempts: 0, envelopeC14n })).sort(byTipoAndFolio);
        const bytes = await envelopeBytes(deps, session, group, documents);
        return { id: newId("envelope"), group, session, documents, bytes, stored: storedEnvelope(bytes, documents), runs: [...new Set(list.map((d) => d.run))] };
      } catch {
        return null; // not buildable now: the general path builds it again and records why it cannot
      }
    }),
  );
  return built.filter((e): e is RoundEnvelope => e !== null);
}

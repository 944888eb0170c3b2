/**
 * The one import behind every door (API.md §12): a received `EnvioDTE` is verified as a whole — refused with 422
 * `ENVELOPE_INVALID` (`format`, `schema`, `signature`, `not_addressed`) and nothing kept — then each DTE is kept
 * with its `verificacion`. Verified documents are unique per (emisor, tipo, folio): a repeat is answered
 * `duplicate: true` with the one kept, and a verified copy supersedes unverified ones kept as evidence. The
 * envelope is acknowledged to the emisor (`acuse.ts`), and `received.created` is recorded for verified documents.
 */
import type { Environment } from "../../db/api-keys.js";
import type { BusinessRow } from "../../db/businesses.js";
import type { ReceivedDocumentRow } from "../../db/received.js";
import type { Deps } from "../../deps.js";
import { ApiError } from "../../http/errors.js";
import { recordEvents, type NewEvent } from "../dte/change-state.js";
import { answerAddresses, queueAcuse } from "./acuse.js";
import { presentReceived, type PresentedReceived } from "./present-received.js";
import { refreshRegistry } from "./refresh-registry.js";
import { keepDocuments } from "./keep-documents.js";
import { nextSequence } from "./sequences.js";
import { verifyOffThread } from "./verify-off-thread.js";

/** Largest envelope taken through any door. */
export const ENVELOPE_LIMIT = 5 * 1024 * 1024;

export interface ImportSource {
  source: "upload" | "smtp" | "imap";
  /** Where answers go when the SII's list has no address for the emisor. */
  replyTo: string | null;
  filename: string | null;
}

export interface ImportResult {
  index: number;
  success: boolean;
  data?: PresentedReceived;
  duplicate?: true;
}

/** Received documents with no XML answer and no registry (exports): decisions are 409 `not_answerable`. */
export const UNANSWERABLE_TIPOS: ReadonlySet<number> = new Set([110, 111, 112]);

const envelopeInvalid = (reason: string, message: string) => new ApiError("ENVELOPE_INVALID", message, { reason });

/**
 * Imports one envelope for `business` in `environment`: throws `ENVELOPE_INVALID` when it cannot be taken as a
 * whole, else returns one result per DTE in envelope order.
 */
export async function importEnvelope(deps: Deps, business: BusinessRow, environment: Environment, bytes: Uint8Array, from: ImportSource): Promise<ImportResult[]> {
  if (bytes.byteLength > ENVELOPE_LIMIT) throw envelopeInvalid("format", `the envelope is larger than ${ENVELOPE_LIMIT} bytes`);
  // Parse, schema and signatures on the verification threads: ≈ 3 s of CPU for a 5 MiB envelope, which the
  // server's thread must not spend while other businesses wait (issue 45).
  const verified = await verifyOffThread(deps, business, environment, bytes);
  if (!verified.ok) throw envelopeInvalid(verified.reason, verified.message);

  const at = deps.now();
  const filename = from.filename ?? `EnvioDTE_${verified.caratula.rutEmisor}_${verified.caratula.tmstFirmaEnv.replace(/[^0-9]/g, "")}.xml`;
  // Read before the transaction: an embedded database has one connection, which the transaction holds.
  const addresses = await answerAddresses(deps, business, verified.caratula.rutEmisor, environment, from.replyTo);
  const kept = await deps.db.transaction(async (tx) => {
    const codEnvio = await nextSequence(tx, business.id, "cod_envio");
    const rows = await keepDocuments(tx, { business, environment, documents: verified.documents, at, codEnvio, replyTo: from.replyTo });
    const events: NewEvent[] = rows
      .filter(({ row, duplicate }) => !duplicate && row.verified)
      .map(({ row }) => ({ businessId: business.id, environment, event: "received.created", at, data: eventData(row) }));
    await recordEvents(tx, events);
    await queueAcuse(deps, tx, { business, environment, envelope: verified, duplicates: rows.map((r) => r.duplicate), codEnvio, filename, receivedAt: at, addresses });
    return rows;
  });
  const results: ImportResult[] = [];
  for (const [index, { row, duplicate }] of kept.entries()) {
    const fresh = duplicate || !row.verified || row.registryCheckAt === null ? row : ((await refreshRegistry(deps, row)) ?? row);
    results.push({ index, success: true, data: presentReceived(fresh), ...(duplicate ? { duplicate: true as const } : {}) });
  }
  return results;
}

/** `data` of the `received.*` events (API.md §12). */
export function eventData(row: ReceivedDocumentRow, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { received_id: row.id, emisor_rut: row.emisorRut, tipo: row.tipo, folio: row.folio, estado: row.estado, plazo_hasta: row.plazoHasta?.toISOString() ?? null, ...extra };
}

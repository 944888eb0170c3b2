/** Typed views of the JSON columns of `documents` (what emission stored, never recomputed). */
import type { DocumentInput, Resolution } from "@timbre/core";
import type { Totals } from "@timbre/core/totals";
import type { DocumentRow } from "../../db/documents.js";
import type { ResolvedRequest } from "./read-emit-request.js";

/** `documents.computed`: the exact core input (issuer snapshot, folio), its totals and the printed resolution. */
export interface StoredComputation {
  input: DocumentInput;
  totals: Totals;
  resolution: Resolution | null;
}

export function computationOf(row: Pick<DocumentRow, "computed">): StoredComputation {
  return row.computed as unknown as StoredComputation;
}

export function requestOf(row: Pick<DocumentRow, "request">): ResolvedRequest {
  return row.request as unknown as ResolvedRequest;
}

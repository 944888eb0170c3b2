/**
 * References of notes (56/61): checked against the business's own documents, and the default CodRef — 1 (anula)
 * when the note modifies that one own document and its total equals the document's, else 3.
 * Decisions (API.md §3 "inconsistent"; BRIEF §4, §11):
 * - a note must reference a tax document (a DTE or paper type, not 801–820, `SET` or free text); where its CodRef
 *   may go is checked before, with the document's other rules (core `validateDocument`);
 * - a document Timbre does not know (issued before the business came to Timbre, or on paper) may be referenced with
 *   any CodRef: the SII holds it and judges the note. There is no default against it: unless another reference of
 *   the note says what the note does, its `codigo` is required (VALIDATION_ERROR);
 * - annulling a rejected or already annulled own document is REFERENCE_INVALID;
 * - against an own document: its date must be the reference's `fecha`; an annulment (CodRef 1) carries exactly the
 *   annulled document's total; a credit note correcting amounts (CodRef 3) credits at most that total.
 *   (Earlier notes against the same document are not summed: a second partial credit note is the issuer's call.)
 */
import { and, eq, ne } from "drizzle-orm";
import { isNote, taxDocumentTipo } from "@timbre/core";
import { documents, type DocumentRow } from "../../db/documents.js";
import type { Executor } from "../../db/tx.js";
import type { BusinessScope } from "../../http/auth.js";
import { ApiError, validationError } from "../../http/errors.js";
import { EMIT_TIPOS, type ReferenciaRequest } from "./schemas.js";
import { apiReferencePath, referencesOf } from "./to-document-input.js";
import type { ResolvedRequest } from "./read-emit-request.js";

export interface ResolvedReferences {
  referencias: ReferenciaRequest[];
  /** The own document this note annuls (CodRef 1), if any. */
  annulsDocumentId: string | null;
}

const invalid = (message: string, details: Record<string, unknown>) => new ApiError("REFERENCE_INVALID", message, details);

/** The largest folio the SII hands out (ten digits; stored as `bigint`): a larger one cannot be an own document. */
export const MAX_STORED_FOLIO = 9_999_999_999;

/** The referenced own document, by tipo and folio. */
export async function findOwnDocument(db: Executor, scope: BusinessScope, tipo: number, folio: number): Promise<DocumentRow | null> {
  if (!Number.isSafeInteger(folio) || folio < 0 || folio > MAX_STORED_FOLIO) return null;
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.businessId, scope.businessId), eq(documents.environment, scope.environment), eq(documents.tipo, tipo), eq(documents.folio, folio)));
  return row ?? null;
}

/** Throws when `target` was already annulled by a note that is not rejected. */
export async function assertNotAnnulled(db: Executor, target: DocumentRow): Promise<void> {
  const [note] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.annulsDocumentId, target.id), ne(documents.estado, "RECHAZADO")))
    .limit(1);
  if (note) throw invalid(`the document ${target.tipo}/${target.folio} was already annulled`, { reason: "already_annulled", annulled_by: note.id });
}

/** A reference's `tipo_doc` when it names a tipo we issue (then the document may be one of ours). */
const ownTipo = (tipoDoc: number | string): number | null => {
  const n = taxDocumentTipo(tipoDoc);
  return n !== null && (EMIT_TIPOS as readonly number[]).includes(n) ? n : null;
};

/** Export notes (111/112) modify only export documents (API.md §3). */
const EXPORT_NOTES: readonly number[] = [111, 112];
const EXPORT_DOCUMENTS: readonly number[] = [110, 111, 112];
/** Credit notes: they may not credit more than the document's total. */
const CREDIT_NOTES: readonly number[] = [61, 112];

export async function resolveReferences(db: Executor, scope: BusinessScope, request: ResolvedRequest, noteTotal: number): Promise<ResolvedReferences> {
  const refs = referencesOf(request).map((r) => ({ ...r }));
  const exportNote = EXPORT_NOTES.includes(request.tipo);
  if (!isNote(request.tipo) && !exportNote) return { referencias: refs, annulsDocumentId: null };
  if (exportNote) {
    const index = refs.findIndex((r) => {
      const tipo = taxDocumentTipo(r.tipo_doc);
      return tipo !== null && !EXPORT_DOCUMENTS.includes(tipo);
    });
    const ref = refs[index];
    if (ref) throw invalid(`an export note modifies a 110, 111 or 112, not a ${ref.tipo_doc}`, { field: apiReferencePath(`referencias[${index}].tipo_doc`, request), reason: "not_export", tipo_doc: ref.tipo_doc });
  }
  if (refs.length === 0) throw validationError([{ path: "referencia", reason: "required", message: "credit and debit notes must reference the document they modify" }]);
  // (Where a CodRef may go — notes, tax documents, which tipo may annul which — is core's `validateDocument`.)
  const modified = refs.filter((r) => taxDocumentTipo(r.tipo_doc) !== null);
  if (modified.length === 0) throw invalid("credit and debit notes must reference the tax document they modify (a DTE or paper document type)", { field: "referencia", reason: "missing" });
  let annulsDocumentId: string | null = null;
  /** Indexes of references to tax documents Timbre does not know that say nothing of what the note does. */
  const unsaid: number[] = [];
  for (const [index, ref] of refs.entries()) {
    const tipo = ownTipo(ref.tipo_doc);
    const folio = typeof ref.folio === "number" ? ref.folio : /^\d+$/.test(ref.folio) ? Number(ref.folio) : null;
    const target = tipo === null || folio === null ? null : await findOwnDocument(db, scope, tipo, folio);
    if (!target) {
      if (ref.codigo === undefined && taxDocumentTipo(ref.tipo_doc) !== null) unsaid.push(index);
      continue;
    }
    const where = { index, tipo_doc: ref.tipo_doc, folio: ref.folio };
    if (target.estado === "RECHAZADO") throw invalid(`the referenced document ${tipo}/${folio} was rejected by the SII`, { ...where, reason: "rejected" });
    if (ref.fecha !== undefined && ref.fecha !== target.fecha) {
      throw invalid(`the referenced document ${tipo}/${folio} is dated ${target.fecha}, not ${ref.fecha}`, { ...where, reason: "date_mismatch", fecha: target.fecha });
    }
    // An annulment references a single document (formato DTE, CodRef: "casos a) b) y c) deben tener un único
    // documento de referencia"): a note modifying several documents defaults to "corrige montos".
    if (ref.codigo === undefined) ref.codigo = modified.length === 1 && target.montoTotal === noteTotal ? 1 : 3;
    if (ref.codigo === 1) {
      if (noteTotal !== target.montoTotal) {
        throw invalid(`an annulment of ${tipo}/${folio} carries its total ${target.montoTotal}, not ${noteTotal}`, { ...where, reason: "amount_mismatch", monto_total: target.montoTotal });
      }
      await assertNotAnnulled(db, target);
      annulsDocumentId ??= target.id;
    }
    if (ref.codigo === 3 && CREDIT_NOTES.includes(request.tipo) && noteTotal > target.montoTotal) {
      throw invalid(`a credit note cannot credit more than the total ${target.montoTotal} of ${tipo}/${folio}`, { ...where, reason: "amount_exceeds", monto_total: target.montoTotal });
    }
  }
  // A note must say what it does; against documents issued elsewhere only its issuer knows (no default).
  if (unsaid.length > 0 && refs.every((r) => r.codigo === undefined)) {
    throw validationError(
      unsaid.map((index) => ({
        path: apiReferencePath(`referencias[${index}].codigo`, request),
        reason: "required" as const,
        message: "a note on a document Timbre did not issue must say whether it annuls it (1), corrects its text (2) or its amounts (3)",
      })),
    );
  }
  return { referencias: refs, annulsDocumentId };
}

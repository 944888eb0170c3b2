/**
 * A receiver's XML answer to the business's own documents (API.md §11–§12): a `RespuestaDTE` (acuse `RecepcionEnvio`
 * or commercial `ResultadoDTE`) or an `EnvioRecibos`, arriving by mail. It is parsed safely (no DTD), validated
 * against its schema, its signatures verified (core's `verifyReceiverAnswer`), and each document it names is recorded
 * only on a document of this business whose receiver is the answer's `RutResponde` and whose tipo, folio, date and
 * total match; then `intercambio.respuestas` shows it and `dte.receiver_answered` is recorded. It never changes
 * `estado` or `/aceptacion`. What is not recorded comes back as a failure for the inbox, with the precise reason.
 */
import { createHash } from "node:crypto";
import { verifyReceiverAnswer, type AnsweredEntry } from "@timbre/core";
import { validateXsd } from "@timbre/xsd";
import { and, eq } from "drizzle-orm";
import type { Environment } from "../../db/api-keys.js";
import { documentAnswers } from "../../db/answers.js";
import type { BusinessRow } from "../../db/businesses.js";
import { documents } from "../../db/documents.js";
import type { Deps } from "../../deps.js";
import { recordEvents, type NewEvent } from "./change-state.js";

/** Why (part of) an answer was not recorded, as `received_inbox.reason`. */
export type AnswerRefusal = "format" | "schema" | "signature" | "not_addressed" | "no_document" | "other_receiver" | "mismatch";

export interface AnswerOutcome {
  /** Answers newly recorded (a repeat of one already kept is not counted). */
  recorded: number;
  /** The environment of the documents it matched (`test` when none). */
  environment: Environment;
  /** The first reason something was not recorded, with every entry's detail; null when all of it was. */
  failure: { reason: AnswerRefusal; detail: string } | null;
}

const sameRut = (a: string, b: string): boolean => a.toUpperCase() === b.toUpperCase();

type Candidate = Pick<typeof documents.$inferSelect, "id" | "environment" | "tipo" | "folio" | "fecha" | "receptorRut" | "montoTotal">;

/** The document an entry answers, or why none qualifies. */
function judge(entry: AnsweredEntry, rutResponde: string, candidates: Candidate[]): { doc: Candidate } | { reason: AnswerRefusal; detail: string } {
  const name = `${entry.tipo}/${entry.folio}`;
  const doc = candidates[0];
  if (doc === undefined) return { reason: "no_document", detail: `${name}: no document of this business has that tipo and folio` };
  if (!sameRut(doc.receptorRut, rutResponde) || !sameRut(entry.rutReceptor, doc.receptorRut)) {
    return { reason: "other_receiver", detail: `${name}: answered by ${rutResponde}, but the document's receiver is ${doc.receptorRut}` };
  }
  if (entry.fecha !== doc.fecha) return { reason: "mismatch", detail: `${name}: the answer's date ${entry.fecha} differs from the document's ${doc.fecha}` };
  if (entry.montoTotal !== doc.montoTotal) return { reason: "mismatch", detail: `${name}: the answer's total ${entry.montoTotal} differs from the document's ${doc.montoTotal}` };
  return { doc };
}

/**
 * Applies one answer attachment to the business's documents.
 *
 * @example
 * const outcome = await recordReceiverAnswer(deps, business, bytes, "RespuestaDTE");
 * if (outcome.failure) keepInInbox(outcome.failure.reason, outcome.failure.detail);
 */
export async function recordReceiverAnswer(deps: Deps, business: BusinessRow, bytes: Uint8Array, root: "RespuestaDTE" | "EnvioRecibos"): Promise<AnswerOutcome> {
  const refused = (reason: AnswerRefusal, detail: string): AnswerOutcome => ({ recorded: 0, environment: "test", failure: { reason, detail } });
  const verified = verifyReceiverAnswer(bytes);
  if (!verified.ok && verified.reason === "format") return refused("format", verified.message);
  const schema = await validateXsd(bytes, root);
  if (!schema.valid) return refused("schema", schema.errors.slice(0, 5).join("; "));
  if (!verified.ok) return refused("signature", verified.message);
  if (!sameRut(verified.rutRecibe, business.rut)) return refused("not_addressed", `the answer is addressed to ${verified.rutRecibe || "nobody"}, not to ${business.rut}`);

  const at = new Date();
  const digest = createHash("sha256").update(bytes).digest("hex");
  const failures: Array<{ reason: AnswerRefusal; detail: string }> = [];
  const matched: Array<{ doc: Candidate; entry: AnsweredEntry }> = [];
  for (const entry of verified.entries) {
    if (!sameRut(entry.rutEmisor, business.rut)) {
      failures.push({ reason: "not_addressed", detail: `${entry.tipo}/${entry.folio}: issued by ${entry.rutEmisor}, not by ${business.rut}` });
      continue;
    }
    const candidates = await deps.db
      .select({ id: documents.id, environment: documents.environment, tipo: documents.tipo, folio: documents.folio, fecha: documents.fecha, receptorRut: documents.receptorRut, montoTotal: documents.montoTotal })
      .from(documents)
      .where(and(eq(documents.businessId, business.id), eq(documents.tipo, entry.tipo), eq(documents.folio, entry.folio)));
    // The same tipo and folio in both environments: the one whose receiver, date and total match.
    const ordered = [...candidates.filter((c) => "doc" in judge(entry, verified.rutResponde, [c])), ...candidates];
    const verdict = judge(entry, verified.rutResponde, ordered);
    if ("doc" in verdict) matched.push({ doc: verdict.doc, entry });
    else failures.push(verdict);
  }
  if (verified.entries.length === 0) failures.push({ reason: "no_document", detail: "the answer names no document (no RecepcionDTE, ResultadoDTE or Recibo)" });

  const recorded = matched.length === 0 ? 0 : await deps.db.transaction(async (tx) => {
    const rows = matched.map(({ doc, entry }) => ({
      documentId: doc.id,
      fingerprint: createHash("sha256").update(`${entry.kind}|${entry.codigo}|${entry.glosa}|${digest}`).digest("hex"),
      businessId: business.id,
      kind: entry.kind,
      codigo: entry.codigo,
      glosa: entry.glosa.slice(0, 256),
      receivedAt: at,
    }));
    const inserted = await tx.insert(documentAnswers).values(rows).onConflictDoNothing().returning({ documentId: documentAnswers.documentId, fingerprint: documentAnswers.fingerprint });
    const fresh = new Set(inserted.map((r) => `${r.documentId}|${r.fingerprint}`));
    const events: NewEvent[] = rows.flatMap((row, i) => {
      const doc = matched[i]?.doc;
      if (doc === undefined || !fresh.has(`${row.documentId}|${row.fingerprint}`)) return [];
      return [{
        businessId: business.id,
        environment: doc.environment,
        event: "dte.receiver_answered",
        data: { dte_id: doc.id, tipo: doc.tipo, folio: doc.folio, respuesta: { tipo: row.kind, codigo: row.codigo, glosa: row.glosa, at: at.toISOString() } },
        at,
      }];
    });
    await recordEvents(tx, events);
    return inserted.length;
  });
  const first = failures[0];
  return {
    recorded,
    environment: matched[0]?.doc.environment ?? "test",
    failure: first === undefined ? null : { reason: first.reason, detail: failures.map((f) => f.detail).join("; ") },
  };
}

/**
 * After commit, emission waits for the upload at most `config.emitBudgetMs`; past it the request answers with the
 * document PENDIENTE (202) while the upload goes on, and the dispatcher takes over on failure.
 */
import type { BusinessRow } from "../../db/businesses.js";
import type { DocumentRow } from "../../db/documents.js";
import type { Deps } from "../../deps.js";
import { submitDocuments, type SubmitOutcome } from "../../dispatch/submit-documents.js";

/**
 * Uploads the just-created documents (held by the caller as inserted) within the budget. Returns the documents
 * whose state afterwards is known without reading them back (this upload changed them); the caller reads the others.
 * `business`: the row the documents were signed with, which the upload then need not read again. `started`: the
 * uploads already under way (the envelope a round stored with its documents), by document id; those are awaited,
 * not submitted.
 */
export async function sendWithinBudget(deps: Deps, created: DocumentRow[], business?: BusinessRow, started?: ReadonlyMap<string, Promise<SubmitOutcome>>): Promise<Map<string, DocumentRow>> {
  const known = new Map<string, DocumentRow>();
  if (created.length === 0) return known;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const budget = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, deps.config.emitBudgetMs);
  });
  const byId = new Map(created.map((r) => [r.id, r]));
  const toSubmit = created.filter((r) => !started?.has(r.id));
  const upload = Promise.all([
    toSubmit.length === 0 ? [] : submitDocuments(deps, toSubmit.map((r) => r.id), toSubmit, { business }),
    ...[...(started?.values() ?? [])].map((outcome) => outcome.then((o) => [o])),
  ]).then(
    (outcomes) => {
      for (const o of outcomes.flat()) {
        const row = byId.get(o.id);
        if (row && o.applied) known.set(o.id, { ...row, ...o.applied });
      }
    },
    (error: unknown) => {
      deps.log.error("dte.submit_failed", { documents: created.length, message: error instanceof Error ? error.message.slice(0, 300) : String(error) });
    },
  );
  try {
    await Promise.race([upload, budget]);
  } finally {
    clearTimeout(timer);
  }
  return known;
}

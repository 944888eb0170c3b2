/**
 * After commit, emission waits for the upload at most `config.emitBudgetMs`; past it the request answers with the
 * document PENDIENTE (202) while the upload goes on, and the dispatcher takes over on failure.
 */
import type { Deps } from "../../deps.js";
import { submitDocuments } from "../../dispatch/submit-documents.js";

export async function sendWithinBudget(deps: Deps, documentIds: string[]): Promise<void> {
  if (documentIds.length === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const budget = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, deps.config.emitBudgetMs);
  });
  const upload = submitDocuments(deps, documentIds).then(
    () => undefined,
    (error: unknown) => {
      deps.log.error("dte.submit_failed", { documents: documentIds.length, message: error instanceof Error ? error.message.slice(0, 300) : String(error) });
    },
  );
  try {
    await Promise.race([upload, budget]);
  } finally {
    clearTimeout(timer);
  }
}

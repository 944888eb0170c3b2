/**
 * `dte batch --wait`: waits until the SII has a final answer for every document of the run, and says which. One
 * `GET /dte/{id}/status` per document would cost thousands of requests for a month of boletas (the API allows 100 a
 * minute), so it lists instead: the documents still PENDIENTE or ENVIADO in the run's dates (`estado`, `desde`,
 * `hasta`, 100 a page), kept to the run's own ids. When none is left, the run's documents listed as RECHAZADO or
 * ACEPTADO_CON_REPAROS are those; the rest are ACEPTADO (final states do not change).
 */
import type { Dte, DteStatus, Timbre } from "@timbre/sdk";
import { CommandFailure, EXIT } from "./base-command.js";

export interface WaitForBatchOptions {
  intervalMs: number;
  timeoutMs: number;
  /** After each poll: how many of the run's documents have a final state. */
  onPoll?: (final: number, total: number) => void;
}

/** The final state of each of `documents`, by id. */
export async function waitForBatch(client: Timbre, documents: readonly Dte[], { intervalMs, timeoutMs, onPoll }: WaitForBatchOptions): Promise<Map<string, DteStatus>> {
  const ids = new Set(documents.map((d) => d.id));
  const fechas = documents.map((d) => d.fecha).sort();
  const range = { desde: fechas[0], hasta: fechas[fechas.length - 1] };
  const ours = async (estado: DteStatus): Promise<string[]> => {
    const found: string[] = [];
    for await (const dte of client.dte.list({ ...range, estado, limit: 100 })) if (ids.has(dte.id)) found.push(dte.id);
    return found;
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = [...(await ours("PENDIENTE")), ...(await ours("ENVIADO"))];
    onPoll?.(ids.size - pending.length, ids.size);
    if (pending.length === 0) break;
    if (Date.now() + intervalMs > deadline) {
      const message = `${pending.length} of ${ids.size} documents still wait for the SII after ${Math.round(timeoutMs / 1000)} s`;
      throw new CommandFailure(message, { code: "WAIT_TIMEOUT", message, hint: "See them later with `timbre dte list --estado ENVIADO`.", details: { pending } }, EXIT.error);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const states = new Map<string, DteStatus>([...ids].map((id) => [id, "ACEPTADO"]));
  for (const estado of ["ACEPTADO_CON_REPAROS", "RECHAZADO"] as const) for (const id of await ours(estado)) states.set(id, estado);
  return states;
}

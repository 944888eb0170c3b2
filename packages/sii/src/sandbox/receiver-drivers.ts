import type { DteFacts } from "./read-envelope.js";
import { RECEIVER_TIPOS } from "./receiver-rules.js";
import type { DocumentOutcome, ReceiverEventRecord } from "./registry.js";

const DRIVER = /\[sandbox:(reclamo|acepta)\]/i;

/**
 * The receiver's events the drivers in RznSocRecep ask for: `[sandbox:reclamo]` makes the receiver (RutRecep)
 * claim the content (RCD) and `[sandbox:acepta]` accept it (ACD), at the moment the document becomes visible.
 * Only for accepted documents of the registry's tipos (33, 34, 43).
 *
 * @example
 * receiverDriverEvents(dte, "DOK", visibleAt); // [{ codigo: "RCD", rut: "77777777-7", at: visibleAt }]
 */
export function receiverDriverEvents(dte: DteFacts, estado: DocumentOutcome["estado"], visibleAt: number): ReceiverEventRecord[] {
  if (!RECEIVER_TIPOS.has(dte.tipo) || estado === "RCH") return [];
  const driver = DRIVER.exec(dte.rznSocRecep)?.[1]?.toLowerCase();
  if (driver === undefined) return [];
  return [{ codigo: driver === "reclamo" ? "RCD" : "ACD", rut: dte.rutRecep.toUpperCase(), at: visibleAt }];
}

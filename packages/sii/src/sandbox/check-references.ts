import { isKnownReferenceType, REFERENCE_DATE_RANGE } from "@timbre/core";
import type { DteFacts } from "./read-envelope.js";

/** What the SII holds of a document referenced by a note: its total, or nothing (never received, or rejected). */
export type ReceivedLookup = (rutEmisor: string, tipo: number, folio: number) => { mntTotal: number } | undefined;

/** Notes: 56, 61 and the export notes 111, 112 modify the document they reference. */
const NOTES: ReadonlySet<number> = new Set([56, 61, 111, 112]);
/** Electronic documents the SII receives: only these can be "not received" (paper ones 30, 35… it never holds). */
const ELECTRONIC: ReadonlySet<number> = new Set([33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112]);

/**
 * The reference rules, as the SII applies them (formato DTE v2.2, E. Referencias, and the codes observed): on any
 * document a numeric TpoDocRef outside the manual's list or an FchRef before 2002-08-01 (SBX-3-4: the manual's rule
 * under the sandbox's code); on notes, a note without a reference (REF-3-415) or without any CodRef (REF-3-758); an annulment or a text correction with more
 * than one reference (SBX-3-2: the manual's "único documento" rule under the sandbox's code); a note to an own
 * electronic document the SII does not hold (REF-3-750); an annulment whose total differs from the annulled document's
 * (REF-2-780, a reparo).
 *
 * @example
 * referenceProblems(noteFacts, (rut, tipo, folio) => registry.find(rut, tipo, folio)); // ["REF-3-750"]
 */
export function referenceProblems(dte: DteFacts, received: ReceivedLookup): string[] {
  const refs = dte.references;
  const codes: string[] = [];
  const badReference = (r: DteFacts["references"][number]) =>
    !isKnownReferenceType(r.tipo) || (r.fecha !== "" && (r.fecha < REFERENCE_DATE_RANGE.min || r.fecha > REFERENCE_DATE_RANGE.max));
  if (refs.some(badReference)) codes.push("SBX-3-4");
  if (!NOTES.has(dte.tipo)) return codes;
  if (refs.length === 0) return [...codes, "REF-3-415"];
  const coded = refs.filter((r) => r.codRef !== null);
  if (coded.length === 0) return [...codes, "REF-3-758"];
  if (coded.some((r) => r.codRef === 1 || r.codRef === 2) && coded.length > 1) codes.push("SBX-3-2");
  for (const ref of coded) {
    const tipo = /^\d+$/.test(ref.tipo) ? Number(ref.tipo) : null;
    const own = ref.rutOtr === null || ref.rutOtr.toUpperCase() === dte.rutEmisor.toUpperCase();
    if (tipo === null || !ELECTRONIC.has(tipo) || !own || !/^\d+$/.test(ref.folio)) continue;
    const target = received(dte.rutEmisor, tipo, Number(ref.folio));
    if (target === undefined) codes.push("REF-3-750");
    else if (ref.codRef === 1 && target.mntTotal !== dte.mntTotal) codes.push("REF-2-780");
  }
  return codes;
}

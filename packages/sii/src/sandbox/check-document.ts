import { isCafExpired, parseEmbeddedCaf, verifyCafSignature, type AuthorityKey, type EmbeddedCaf } from "@timbre/core/caf";
import { describeSiiCode } from "../codes/describe.js";
import { codeLevel } from "../codes/document-codes.js";
import { exportProblems, liquidationProblems, purchaseProblems } from "./check-new-tipos.js";
import { partyProblems } from "./check-parties.js";
import { referenceProblems, type ReceivedLookup } from "./check-references.js";
import type { DteFacts } from "./read-envelope.js";
import type { DocumentOutcome, DocumentRegistry } from "./registry.js";

/** Everything a per-document check needs besides the document. */
export interface DocumentCheckContext {
  authorities: AuthorityKey[];
  registry: DocumentRegistry;
  /** The TED verified against the CAF key inside it (from core's `verifyEnvelope`). */
  tedValid: boolean;
  /** Rejection code for `[sandbox:rechazo]` (default HED-3-305). */
  rejectionCode: string;
  /** Remark code for `[sandbox:reparos]` (default HED-1-863). */
  remarkCode: string;
  /**
   * What the SII holds of a referenced document (REF-3-750, REF-2-780): received and not rejected, here or earlier in
   * the same envelope. Default: the registry's documents that are not rejected.
   */
  received?: ReceivedLookup;
  /** An earlier DTE of the same envelope has this tipo and folio: the SII takes one of them (DTE-3-101). */
  repeatedInEnvelope?: boolean;
}

/** What a CAF is worth whatever document carries it: its contents (null: unreadable) and its authority's verdict. */
interface CafVerdict {
  caf: EmbeddedCaf | null;
  authentic: boolean;
}

/**
 * Verdicts by CAF text, per set of trusted authorities (one per sandbox). Every document of a range carries the same
 * CAF, and reading it plus checking the authority's signature cost as much as the rest of a document's checks.
 * Bounded: a sandbox that sees more than `MAX_CAFS` different CAFs starts over.
 */
const verdicts = new WeakMap<AuthorityKey[], Map<string, CafVerdict>>();
const MAX_CAFS = 1_000;

function cafVerdict(cafXml: string, authorities: AuthorityKey[]): CafVerdict {
  let known = verdicts.get(authorities);
  if (known === undefined) verdicts.set(authorities, (known = new Map()));
  const hit = known.get(cafXml);
  if (hit !== undefined) return hit;
  let verdict: CafVerdict;
  try {
    const caf = parseEmbeddedCaf(cafXml);
    let authentic = true;
    try {
      verifyCafSignature(caf, authorities);
    } catch {
      authentic = false;
    }
    verdict = { caf, authentic };
  } catch {
    verdict = { caf: null, authentic: false };
  }
  if (known.size >= MAX_CAFS) known.clear();
  known.set(cafXml, verdict);
  return verdict;
}

/** The date the SII judges a CAF's expiry by: the document's signature (TmstFirma), else its FchEmis. */
function signatureDate(dte: DteFacts): string {
  const signed = dte.tmstFirma.slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(signed) ? signed : dte.fchEmis;
}

function cafProblems(dte: DteFacts, caf: EmbeddedCaf | null, authentic: boolean): string[] {
  if (dte.cafXml === null) return ["TED-2-510"];
  if (caf === null) return ["CAF-3-516"];
  const codes: string[] = [];
  if (!authentic) codes.push("CAF-3-516");
  if (caf.rut.toUpperCase() !== dte.rutEmisor.toUpperCase() || caf.tipo !== dte.tipo) codes.push("CAF-3-519");
  if (dte.folio < caf.desde || dte.folio > caf.hasta) codes.push("CAF-3-518");
  const signed = signatureDate(dte);
  if (/^\d{4}-\d{2}-\d{2}$/.test(signed) && isCafExpired(caf, signed)) codes.push("CAF-3-517");
  if (dte.fchEmis < caf.fechaAutorizacion) codes.push("HED-3-305");
  return codes;
}

/** Boletas, and the notes that modify one, are the only documents to the unidentified consumer 66666666-6. */
function anonymousReceiverProblems(dte: DteFacts): string[] {
  if (dte.rutRecep.replace(/^0+/, "").toUpperCase() !== "66666666-6") return [];
  if (dte.tipo === 39 || dte.tipo === 41) return [];
  const modifiesReceipt = (dte.tipo === 56 || dte.tipo === 61) && dte.references.some((r) => r.tipo.trim() === "39" || r.tipo.trim() === "41");
  return modifiesReceipt ? [] : ["REC-3-106"];
}

/**
 * Checks one DTE of a well-formed, well-signed envelope like the SII's processing does: TED against its CAF,
 * CAF against the authority keys, folio in range, CAF expiry judged
 * by the signature's date (CAF-3-517), emission before authorisation (HED-3-305), folio reuse (DTE-3-101 other data or
 * twice in one envelope, DTE-3-100 same data), the anonymous consumer 66666666-6 as the receiver of anything but a
 * boleta or a note to one (REC-3-106), the parties (`partyProblems`), the notes' references (`referenceProblems`),
 * plus the outcome drivers
 * `[sandbox:rechazo]` / `[sandbox:reparos]` in RznSocRecep (`[sandbox:rechazo=CODE]` picks the code).
 *
 * @example
 * checkDocument(dte, ctx).estado; // "DOK"
 */
export function checkDocument(dte: DteFacts, ctx: DocumentCheckContext): DocumentOutcome {
  const { caf, authentic } = dte.cafXml === null ? { caf: null, authentic: false } : cafVerdict(dte.cafXml, ctx.authorities);
  const ofCaf = cafProblems(dte, caf, authentic);
  const codes = ctx.tedValid ? ofCaf : ["TED-2-510", ...ofCaf.filter((c) => c !== "TED-2-510")];
  codes.push(...anonymousReceiverProblems(dte));
  codes.push(...exportProblems(dte), ...purchaseProblems(dte), ...liquidationProblems(dte));
  codes.push(...partyProblems(dte, caf?.razonSocial ?? null));
  const received: ReceivedLookup = ctx.received ?? ((rut, tipo, folio) => {
    const doc = ctx.registry.find(rut, tipo, folio);
    return doc !== undefined && doc.estado !== "RCH" ? doc : undefined;
  });
  codes.push(...referenceProblems(dte, received));
  const previous = ctx.registry.find(dte.rutEmisor, dte.tipo, dte.folio);
  if (previous !== undefined) codes.push(previous.fingerprint === dte.fingerprint ? "DTE-3-100" : "DTE-3-101");
  else if (ctx.repeatedInEnvelope === true) codes.push("DTE-3-101");
  const driver = /\[sandbox:(rechazo|reparos)(?:=([A-Z]{2,4}-\d-\d+))?\]/i.exec(dte.rznSocRecep);
  if (driver?.[1]?.toLowerCase() === "rechazo") codes.push(driver[2]?.toUpperCase() ?? ctx.rejectionCode);
  if (driver?.[1]?.toLowerCase() === "reparos") codes.push(driver[2]?.toUpperCase() ?? ctx.remarkCode);
  const errors = [...new Set(codes)].map((codigo) => ({
    codigo,
    descripcion: describeSiiCode(codigo, "document").descripcion,
    nivel: codeLevel(codigo) ?? 3,
  }));
  const estado = errors.some((e) => e.nivel >= 3) ? "RCH" : errors.length > 0 ? "RLV" : "DOK";
  return { tipo: dte.tipo, folio: dte.folio, estado, errors };
}

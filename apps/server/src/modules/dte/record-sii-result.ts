/**
 * The SII's result mail for one of the business's envelopes (`RESULTADO_ENVIO`, `RespSII_v10.xsd`,
 * BRIEF-intercambio §5; API.md §12): parsed safely (no DTD), validated against its schema, matched to the business's
 * envelope by `TRACKID` (compared as a number: the mail may drop leading zeros) and issuer RUT, and turned into
 * `sii.errores[]` — code, the SII's text, a fixing hint from the codes dictionary — on `GET /dte/{id}/status` of the
 * documents it names (`REVISIONDTE`; the envelope's own errors, `ERRORENVIO`, go to every document of the envelope).
 * It never changes `estado`: the SII's web services stay the authority on state. A mail that matches no envelope
 * of the business comes back as a failure for the inbox.
 */
import { readSiiResult } from "@timbre/core";
import { describeSiiCode } from "@timbre/sii";
import { validateXsd } from "@timbre/xsd";
import { and, eq, inArray, or } from "drizzle-orm";
import { documentSiiMails } from "../../db/answers.js";
import type { Environment } from "../../db/api-keys.js";
import type { BusinessRow } from "../../db/businesses.js";
import { documents, envelopes } from "../../db/documents.js";
import type { Executor } from "../../db/tx.js";
import type { Deps } from "../../deps.js";

type SiiError = { codigo: string; descripcion: string; ayuda: string };

export interface SiiResultOutcome {
  /** Documents that got errors from this mail. */
  documents: number;
  environment: Environment;
  failure: { reason: "format" | "schema" | "not_addressed" | "no_envelope"; detail: string } | null;
}

/** `(DTE-3-101) Folio …` → that code, the SII's text and the dictionary's hint; another line keeps `fallback` as its code. */
function errorOf(line: string, fallback: string): SiiError {
  const m = /^\s*\(([^)]+)\)\s*([\s\S]*)$/.exec(line);
  const codigo = (m?.[1] ?? fallback).trim();
  const known = describeSiiCode(codigo, m ? "document" : "envelope");
  return { codigo, descripcion: ((m?.[2] ?? line).trim() || known.descripcion).slice(0, 500), ayuda: known.ayuda };
}

/** The spellings a TRACKID may be stored in: as the mail writes it, without leading zeros, and padded to 10 digits. */
function trackIdSpellings(trackId: string): string[] {
  const bare = trackId.replace(/^0+(?=\d)/, "");
  return [...new Set([trackId, bare, bare.padStart(10, "0")])];
}

/**
 * Applies one `RESULTADO_ENVIO` attachment to the business's documents.
 *
 * @example
 * const outcome = await recordSiiResult(deps, business, bytes);
 */
export async function recordSiiResult(deps: Deps, business: BusinessRow, bytes: Uint8Array): Promise<SiiResultOutcome> {
  const refused = (reason: NonNullable<SiiResultOutcome["failure"]>["reason"], detail: string): SiiResultOutcome => ({ documents: 0, environment: "test", failure: { reason, detail } });
  const read = readSiiResult(bytes);
  if (!read.ok) return refused("format", read.message);
  const schema = await validateXsd(bytes, "RESULTADO_ENVIO");
  if (!schema.valid) return refused("schema", schema.errors.slice(0, 5).join("; "));
  const mail = read.result;
  if (mail.rutEmisor !== business.rut.toUpperCase()) return refused("not_addressed", `the result is for issuer ${mail.rutEmisor}, not ${business.rut}`);
  if (!/^\d+$/.test(mail.trackId)) return refused("no_envelope", `TRACKID ${mail.trackId} is not a number`);
  const [envelope] = await deps.db
    .select({ id: envelopes.id, environment: envelopes.environment, trackId: envelopes.trackId })
    .from(envelopes)
    .where(and(eq(envelopes.businessId, business.id), inArray(envelopes.trackId, trackIdSpellings(mail.trackId))))
    .limit(1);
  if (envelope === undefined || envelope.trackId === null) return refused("no_envelope", `no envelope of this business has TRACKID ${mail.trackId}`);
  const trackId = envelope.trackId;

  const envelopeErrors = mail.erroresEnvio.map((line) => errorOf(line, mail.estado.slice(0, 3)));
  const perDocument = new Map<string, SiiError[]>();
  for (const r of mail.revisiones) {
    const key = `${r.tipo}/${r.folio}`;
    perDocument.set(key, [...(perDocument.get(key) ?? []), ...r.detalles.map((line) => errorOf(line, r.estado.slice(0, 3)))]);
  }
  const docs = await deps.db
    .select({ id: documents.id, tipo: documents.tipo, folio: documents.folio })
    .from(documents)
    .where(and(eq(documents.businessId, business.id), or(eq(documents.envelopeId, envelope.id), eq(documents.trackId, trackId))));
  const at = new Date();
  const rows = docs
    .map((d) => ({ documentId: d.id, trackId, businessId: business.id, errores: [...envelopeErrors, ...(perDocument.get(`${d.tipo}/${d.folio}`) ?? [])].slice(0, 20), receivedAt: at }))
    .filter((r) => r.errores.length > 0);
  if (rows.length > 0) {
    await deps.db.transaction(async (tx) => {
      await tx.delete(documentSiiMails).where(and(eq(documentSiiMails.trackId, trackId), inArray(documentSiiMails.documentId, rows.map((r) => r.documentId))));
      await tx.insert(documentSiiMails).values(rows);
    });
  }
  return { documents: rows.length, environment: envelope.environment, failure: null };
}

/**
 * The SII result mails' errors of one document, oldest mail first, for `GET /dte/{id}/status`.
 *
 * @example
 * const errores = await siiMailErrorsOf(deps.db, row.id);
 */
export async function siiMailErrorsOf(db: Executor, documentId: string): Promise<SiiError[]> {
  const rows = await db.select({ errores: documentSiiMails.errores }).from(documentSiiMails).where(eq(documentSiiMails.documentId, documentId)).orderBy(documentSiiMails.receivedAt);
  return rows.flatMap((r) => r.errores);
}

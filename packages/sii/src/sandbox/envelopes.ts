import type { DocumentOutcome } from "./registry.js";

/** Final verdict of an envelope: processed (`EPR`, read per document) or rejected as a whole (`RPT`: a repeat). */
export type EnvelopeFinal = "EPR" | "RSC" | "RFR" | "RCT" | "RPT";

/** An envelope the sandbox accepted for processing (it has a TRACKID). */
export interface EnvelopeRecord {
  trackId: string;
  kind: "EnvioDTE" | "EnvioBOLETA";
  channel: "dteupload" | "boleta-rest";
  rutEmisor: string;
  rutEnvia: string;
  file: string;
  receivedAt: number;
  final: EnvelopeFinal;
  /** Envelope-level problems (carátula, schema, signature) with SII codes. */
  envelopeErrors: Array<{ codigo: string; descripcion: string }>;
  /** Per-document verdicts (empty for envelope-level rejections). */
  documents: DocumentOutcome[];
}

const PATHS: Record<EnvelopeFinal, string[]> = {
  EPR: ["REC", "SOK", "CRT", "FOK", "EPR"],
  RCT: ["REC", "SOK", "RCT"],
  RFR: ["REC", "SOK", "CRT", "RFR"],
  RSC: ["REC", "RSC"],
  RPT: ["REC", "SOK", "RPT"],
};

/**
 * The envelope's ESTADO at `now`: one step of REC → SOK → CRT → FOK → EPR (or the rejection) every `stepMs`.
 *
 * @example
 * estadoAt(record, Date.now(), 0); // final immediately
 */
export function estadoAt(record: EnvelopeRecord, now: number, stepMs: number): string {
  const path = PATHS[record.final];
  const last = path.length - 1;
  const index = stepMs <= 0 ? last : Math.min(last, Math.floor((now - record.receivedAt) / stepMs));
  return path[Math.max(0, index)] ?? "REC";
}

/**
 * When the envelope reaches its final state (epoch ms).
 *
 * @example
 * processedAt(record, 1000);
 */
export function processedAt(record: EnvelopeRecord, stepMs: number): number {
  return record.receivedAt + Math.max(0, stepMs) * (PATHS[record.final].length - 1);
}

/**
 * Counts per document type (`TIPO_DOCTO…REPAROS`), in order of first appearance.
 *
 * @example
 * countsOf(record.documents); // [{ tipo: 33, informados: 1, aceptados: 1, rechazados: 0, reparos: 0 }]
 */
export function countsOf(documents: readonly DocumentOutcome[]) {
  const byTipo = new Map<number, { tipo: number; informados: number; aceptados: number; rechazados: number; reparos: number }>();
  for (const doc of documents) {
    const c = byTipo.get(doc.tipo) ?? { tipo: doc.tipo, informados: 0, aceptados: 0, rechazados: 0, reparos: 0 };
    c.informados += 1;
    if (doc.estado === "RCH") c.rechazados += 1;
    else {
      c.aceptados += 1;
      if (doc.estado === "RLV") c.reparos += 1;
    }
    byTipo.set(doc.tipo, c);
  }
  return [...byTipo.values()];
}

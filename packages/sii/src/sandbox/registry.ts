import type { ReceiverEventCode } from "../codes/receiver-registry.js";
import type { DteReference } from "./read-envelope.js";

/** The verdict of one document, as the sandbox reports it. */
export interface DocumentOutcome {
  tipo: number;
  folio: number;
  /** `DOK` accepted, `RLV` accepted with remarks, `RCH` rejected. */
  estado: "DOK" | "RLV" | "RCH";
  errors: Array<{ codigo: string; descripcion: string; nivel: number }>;
}

/** What a receiver registered on a document (registry of acceptances and claims). */
export interface ReceiverEventRecord {
  codigo: Exclude<ReceiverEventCode, "NCA" | "ENC">;
  /** Who registered it (the token holder's RUT; the receiver's for the `[sandbox:reclamo]` / `[sandbox:acepta]` drivers). */
  rut: string;
  /** Epoch ms. */
  at: number;
}

/** A document the sandbox has received. */
export interface RegisteredDocument {
  rutEmisor: string;
  tipo: number;
  folio: number;
  fchEmis: string;
  rutRecep: string;
  mntTotal: number;
  fingerprint: string;
  estado: DocumentOutcome["estado"];
  trackId: string;
  /** Epoch ms from which QueryEstDte sees it (the envelope was processed). */
  visibleAt: number;
  /** Epoch ms its envelope was received: the SII's "fecha de recepción", from which the receiver's 8 days run. */
  receivedAt: number;
  /** Its references (credit notes name the document they modify). */
  references: DteReference[];
  /** The receiver's events, oldest first (mutable: the registry of acceptances and claims records here). */
  receiverEvents: ReceiverEventRecord[];
}

/**
 * Whether the SII "has" a document at `now`: its envelope was processed and the document was not rejected. Before
 * that QueryEstDte says FAU and the registry of acceptances and claims "Documento no ha sido recibido".
 *
 * @example
 * isReceived(doc, Date.now()); // true once processed (DOK or RLV)
 */
export function isReceived(doc: RegisteredDocument, now: number): boolean {
  return doc.visibleAt <= now && doc.estado !== "RCH";
}

/** Key of a document: issuer, type and folio. */
export const documentKey = (rutEmisor: string, tipo: number, folio: number): string => `${rutEmisor.toUpperCase()}|${tipo}|${folio}`;

/**
 * Documents received (by issuer/tipo/folio) and the folio ranges the sandbox authorised.
 *
 * @example
 * registry.find("76192083-9", 33, 1)?.estado;
 */
export class DocumentRegistry {
  readonly #documents = new Map<string, RegisteredDocument>();
  readonly #ranges: Array<{ rut: string; tipo: number; desde: number; hasta: number }> = [];
  /** Credit notes (61) by the key of a document of the same issuer they reference. */
  readonly #creditNotes = new Map<string, RegisteredDocument[]>();

  /** The first registration of a folio (later ones with other data are DTE-3-101, same data DTE-3-100). */
  find(rutEmisor: string, tipo: number, folio: number): RegisteredDocument | undefined {
    return this.#documents.get(documentKey(rutEmisor, tipo, folio));
  }

  /** Registers a document unless the folio is already registered (and indexes a credit note's references). */
  register(doc: RegisteredDocument): void {
    const key = documentKey(doc.rutEmisor, doc.tipo, doc.folio);
    if (this.#documents.has(key)) return;
    this.#documents.set(key, doc);
    if (doc.tipo !== 61) return;
    const targets = new Set(doc.references
      .filter((r) => /^\d+$/.test(r.tipo) && /^\d+$/.test(r.folio) && (r.rutOtr === null || r.rutOtr.toUpperCase() === doc.rutEmisor.toUpperCase()))
      .map((r) => documentKey(doc.rutEmisor, Number(r.tipo), Number(r.folio))));
    for (const target of targets) this.#creditNotes.set(target, [...(this.#creditNotes.get(target) ?? []), doc]);
  }

  /** Credit notes (61) of the same issuer that reference this document, in order of registration (any verdict). */
  creditNotesFor(rutEmisor: string, tipo: number, folio: number): RegisteredDocument[] {
    return this.#creditNotes.get(documentKey(rutEmisor, tipo, folio)) ?? [];
  }

  /** Records a folio range the sandbox authorised (for QueryEstDte `FNA`). */
  addRange(rut: string, tipo: number, desde: number, hasta: number): void {
    this.#ranges.push({ rut: rut.toUpperCase(), tipo, desde, hasta });
  }

  /** Whether a folio belongs to a range the sandbox authorised. */
  isAuthorised(rut: string, tipo: number, folio: number): boolean {
    return this.#ranges.some((r) => r.rut === rut.toUpperCase() && r.tipo === tipo && folio >= r.desde && folio <= r.hasta);
  }

  /** Whether the sandbox authorised any range for this issuer and type. */
  hasRanges(rut: string, tipo: number): boolean {
    return this.#ranges.some((r) => r.rut === rut.toUpperCase() && r.tipo === tipo);
  }

  /** Every registered document (inspection). */
  all(): RegisteredDocument[] {
    return [...this.#documents.values()];
  }
}

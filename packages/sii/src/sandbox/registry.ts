/** The verdict of one document, as the sandbox reports it. */
export interface DocumentOutcome {
  tipo: number;
  folio: number;
  /** `DOK` accepted, `RLV` accepted with remarks, `RCH` rejected. */
  estado: "DOK" | "RLV" | "RCH";
  errors: Array<{ codigo: string; descripcion: string; nivel: number }>;
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

  /** The first registration of a folio (later ones with other data are DTE-3-101, same data DTE-3-100). */
  find(rutEmisor: string, tipo: number, folio: number): RegisteredDocument | undefined {
    return this.#documents.get(documentKey(rutEmisor, tipo, folio));
  }

  /** Registers a document unless the folio is already registered. */
  register(doc: RegisteredDocument): void {
    const key = documentKey(doc.rutEmisor, doc.tipo, doc.folio);
    if (!this.#documents.has(key)) this.#documents.set(key, doc);
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

/** Where a code's meaning comes from. */
export type SiiCodeSource =
  /** An official SII document (manual, WSDL, schema). */
  | "sii"
  /** Seen in SII answers by other implementations (LibreDTE, public projects); not in an official table we have. */
  | "observado"
  /** Used by the Timbre sandbox where we know no real SII code; never trust it to match production. */
  | "sandbox";

/** One SII code with the SII's text and a short hint (Spanish) on how to fix or handle it. */
export interface SiiCodeInfo {
  /** The code as the SII writes it (`"7"`, `"EPR"`, `"CAF-3-517"`). */
  codigo: string;
  /** The SII's description (or the closest known wording). */
  descripcion: string;
  /** What to do about it, in Spanish, for the API's users. */
  ayuda: string;
}

/** A code entry as stored in the dictionaries. */
export interface SiiCodeEntry extends SiiCodeInfo {
  source: SiiCodeSource;
  /**
   * Where the rule (and the code) comes from, for a reader to tell the SII's rules from the sandbox's own: a section of
   * an official document, or who observed the SII giving it.
   */
  fuente?: string;
}

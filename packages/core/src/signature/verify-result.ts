/** Outcome of one signed document inside a {@link VerifyResult}. */
export interface DocumentVerification {
  /** `Documento/@ID` (the signature's reference target). */
  id: string;
  /** `TipoDTE` of the verified `Documento` (0 when unreadable). */
  tipo: number;
  /** `Folio` of the verified `Documento` (0 when unreadable). */
  folio: number;
  /** The DTE's XMLDSig signature verified (stand-alone, the SII way). */
  signature: boolean;
  /** The TED's FRMT verified with the CAF key inside it and the DD matches the document. */
  ted: boolean;
  errors: string[];
  /** Tolerated, untrusted content (see {@link VerifyResult.warnings}). */
  warnings?: string[];
}

/** Result of `verifyDte`, `verifyEnvelope` and `verifyTed`: `valid` only when `errors` is empty. */
export interface VerifyResult {
  valid: boolean;
  errors: string[];
  /** Things tolerated but not trusted (e.g. a vendor element after a DTE's Signature: unsigned, ignored). */
  warnings?: string[];
  /** Per DTE (one for `verifyDte`, one per `<DTE>` for `verifyEnvelope`). */
  documents?: DocumentVerification[];
}

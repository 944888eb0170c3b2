/** One authorised folio range (a CAF) as the folio allocator sees it. */
export interface FolioRange {
  id: string;
  tipo: number;
  /** First folio, inclusive. */
  desde: number;
  /** Last folio, inclusive. */
  hasta: number;
  /** Next folio to hand out; `hasta + 1` once exhausted. */
  siguiente: number;
  /** `YYYY-MM-DD` (CAF `FA`). */
  fechaAutorizacion: string;
  /** First day the range may no longer be used (`cafExpiresOn`), or `null` when it never expires. */
  expiresOn: string | null;
}

/** Status as shown in the API (`estado` of a numeration). */
export type RangeStatus = "activa" | "agotada" | "vencida";

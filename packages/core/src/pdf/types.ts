/** Inputs of the printed representation (BRIEF §9). */
import type { DocumentInput, Resolution } from "../document/types.js";
import type { Totals } from "../totals/index.js";

/** What is printed: the document, its computed totals, its timbre and the issuer's SII resolution. */
export interface PrintableDocument {
  input: DocumentInput;
  totals: Totals;
  /** The `<TED version="1.0">…</TED>` text (flattened, no XML declaration, no namespace); null for previews. */
  ted: string | null;
  /** Printed under the timbre as `Res. <numero> de <year>`; the line is omitted when null. */
  resolution: Resolution | null;
}

/** How to print it. */
export interface RenderOptions {
  /** `carta`: US Letter pages (default). `termica`: one 80 mm wide roll page whose height follows the content. */
  formato?: "carta" | "termica";
  /**
   * Print the transferable copy (acuse de recibo block + `CEDIBLE`). Only tipos 33, 34 and 52 have one; for any
   * other tipo the flag is ignored and the normal copy is printed (BRIEF §9: no cedible on 39, 41, 56, 61).
   */
  cedible?: boolean;
  /** A draft: no folio, no timbre, `SIN VALIDEZ TRIBUTARIA` watermark. Implied when `ted` is null. */
  preview?: boolean;
  /** Issuer logo, PNG or JPEG bytes. */
  logo?: { bytes: Uint8Array; type: "png" | "jpeg" };
}

import type { KeyObject } from "node:crypto";

/** A parsed, structurally checked CAF (Código de Autorización de Folios). */
export interface Caf {
  /** Issuer RUT in canonical form (`RE`). */
  rut: string;
  /** `RS` (registered name, truncated to 40 by the SII). */
  razonSocial: string;
  /** `TD`. */
  tipo: number;
  /** `RNG/D`, inclusive. */
  desde: number;
  /** `RNG/H`, inclusive. */
  hasta: number;
  /** `FA`, `YYYY-MM-DD`. */
  fechaAutorizacion: string;
  /** `IDK`: which authority key signed it (100 certification, 300 production, others: sandbox). */
  idk: number;
  /**
   * The `<CAF version="1.0">…</CAF>` element flattened exactly as the TED embeds it and as `FRMA` was computed
   * over its `DA`: no whitespace between tags, no namespace declarations, text escaped (`&amp;` `&lt;` `&gt;`).
   */
  cafXml: string;
  /** The flattened `<DA>…</DA>` (the bytes the authority signed, before ISO-8859-1 encoding). */
  daXml: string;
  /** `FRMA` base64. */
  frma: string;
  /** The CAF's RSA public key (from `RSAPK`). */
  publicKey: KeyObject;
  /** The CAF's RSA private key (`RSASK`), used only to sign the TED. */
  privateKey: KeyObject;
}

/** The signed, public part of a CAF as embedded in every TED (`CAF` element without `RSASK`/`RSAPUBK`). */
export type EmbeddedCaf = Omit<Caf, "privateKey">;

/** A public key of the CAF-signing authority (the SII: IDK 100 certification, 300 production; or a sandbox). */
export interface AuthorityKey {
  idk: number;
  publicKey: KeyObject;
}

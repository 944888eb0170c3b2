/** What use cases receive instead of the HTTP context. */
import type { Config } from "./config.js";
import type { Db } from "./db/open-database.js";
import type { Liveness } from "./liveness.js";
import type { Logger } from "./log.js";
import type { IssuerSource } from "./modules/issuers/issuer-file.js";
import type { Environment } from "./db/api-keys.js";
import type { PdfRenderer } from "./pdf/pdf-threads.js";
import type { CertificateLoader } from "./modules/businesses/certificate-loader.js";
import type { Secrets } from "./secrets.js";
import type { SiiGateway } from "./sii/gateway.js";
import type { EnvelopeVerifier } from "./verify/verify-threads.js";
import type { DocumentSigner } from "./signing/document-signer.js";

export interface Deps {
  db: Db;
  config: Config;
  secrets: Secrets;
  log: Logger;
  certificates: CertificateLoader;
  /**
   * Distinguishes app instances in one process (Elysia dedupes named plugins by name + seed), and names this
   * process to the others (`liveness`).
   */
  instanceId: string;
  /** Whether another server process (the owner of a half-done request) is still running. */
  liveness: Liveness;
  /** Wall clock (tests may pin it). */
  now: () => Date;
  /** Timbres and signs the documents of an emission round (worker threads unless `signingThreads` is 0). */
  signer: DocumentSigner;
  /** Renders PDFs on worker threads, bounded per business (`pdf/pdf-threads.ts`). */
  pdf: PdfRenderer;
  /**
   * The SII's list of authorised electronic issuers per environment, as loaded (`SII_ISSUERS_FILE`); null: none. Read
   * through `issuerOf` (`modules/issuers/issuer-of.ts`), which adds the sandbox's businesses in sandbox mode.
   */
  issuers: Record<Environment, IssuerSource | null>;
  /** Verifies received envelopes on worker threads, bounded per business (`verify/verify-threads.ts`). */
  verifier: EnvelopeVerifier;
  /** The SII of each environment (opened on first use). */
  sii: () => Promise<SiiGateway>;
  /** Releases what the deps opened (the in-process sandbox SII, the liveness lock's connection). */
  close: () => Promise<void>;
}

import { resolveHosts, type SiiEnvironment } from "../protocol/endpoints.js";
import * as auth from "./auth.js";
import type { ClientContext, SeedSigner, SiiIdentity } from "./context.js";
import { defaultSeedSigner } from "./default-signer.js";
import { queryBoletaDocumentStatus, queryEstDte, type DocumentStatus, type DocumentStatusQuery } from "./document-status.js";
import { queryBoletaStatus, queryEstUp, type EnvelopeStatus } from "./envelope-status.js";
import { SiiTransientError } from "./errors.js";
import {
  queryAssignability, queryReceiverEvents, queryReceptionDate, registerAction,
  type ReceiverAction, type ReceiverDocumentQuery, type ReceiverEvents, type ReceiverRegistryAnswer,
} from "./receiver-registry.js";
import { TokenCache, type TokenKind } from "./token-cache.js";
import { uploadBoletaRest, uploadDte, type UploadChannel, type UploadInput, type UploadResult } from "./upload.js";

/** The boleta types, asked about through the boleta REST API. */
const BOLETA_TIPOS: ReadonlySet<number> = new Set([39, 41]);

/** How EnvioBOLETA is uploaded: REST only, DTEUpload only, or REST then DTEUpload on 5xx/network errors. */
export type BoletaUploadMode = "rest" | "dteupload" | "rest-with-fallback";

/** Options of {@link SiiClient}. */
export interface SiiClientOptions {
  environment: SiiEnvironment;
  identity: SiiIdentity;
  timeouts?: { requestMs?: number };
  /** How long a token is reused (default 10 minutes); it is renewed earlier when the SII refuses it. */
  tokenTtlMs?: number;
  fetch?: typeof fetch;
  now?: () => Date;
  /** Seed signer (default: core's `signSeed`). */
  signSeed?: SeedSigner;
  boletaUpload?: BoletaUploadMode;
}

/** Query of {@link SiiClient.getUploadStatus}. */
export interface UploadStatusQuery {
  trackId: string;
  rutEmisor: string;
  kind: "EnvioDTE" | "EnvioBOLETA";
  /** The channel the upload went through (from {@link UploadResult}); default per kind and `boletaUpload`. */
  channel?: UploadChannel;
}

const REAUTH_REASONS = new Set(["token", "html"]);

/**
 * Speaks the SII's protocols: SOAP seed/token, DTEUpload, QueryEstUp, QueryEstDte, the boleta REST API and the
 * registry of acceptances and claims (registroreclamodteservice).
 * Tokens are cached per kind and renewed on expiry, on token errors and on HTML answers (once per call).
 * Errors are {@link SiiTransientError} (retry later), `SiiRefusedError` (the upload refused: fix the envelope) or
 * `SiiAuthError` (the certificate was not authenticated: nothing sent). Never logs.
 *
 * @example
 * const client = new SiiClient({ environment: "certificacion", identity: { privateKey, certificateDer, holderRut: "11111111-1" } });
 * const { trackId } = await client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: "76192083-9" });
 */
export class SiiClient {
  readonly #ctx: ClientContext;
  readonly #tokens: TokenCache;
  readonly #boletaUpload: BoletaUploadMode;

  constructor(options: SiiClientOptions) {
    this.#ctx = {
      hosts: resolveHosts(options.environment),
      fetch: options.fetch ?? fetch,
      requestMs: options.timeouts?.requestMs ?? 30_000,
      identity: options.identity,
      signSeed: options.signSeed ?? defaultSeedSigner,
    };
    this.#tokens = new TokenCache(options.tokenTtlMs ?? 10 * 60_000, options.now ?? (() => new Date()));
    this.#boletaUpload = options.boletaUpload ?? "rest";
  }

  /** CrSeed.getSeed: a fresh seed. */
  getSeed(): Promise<string> {
    return auth.getSeed(this.#ctx);
  }

  /** GetTokenFromSeed.getToken: signs `seed` (or a fresh one) and returns a new token (not cached). */
  async getToken(seed?: string): Promise<string> {
    const value = seed ?? (await this.getSeed());
    return auth.getToken(this.#ctx, this.#ctx.signSeed(value, this.#ctx.identity));
  }

  /** A cached or fresh token of this kind. */
  token(kind: TokenKind = "dte"): Promise<string> {
    return this.#tokens.obtain(kind, () => this.#authenticate(kind));
  }

  /** Forgets the cached tokens. */
  invalidateTokens(): void {
    this.#tokens.invalidate("dte");
    this.#tokens.invalidate("boleta");
  }

  /** Uploads an envelope: EnvioDTE by DTEUpload; EnvioBOLETA by the boleta REST API (see `boletaUpload`). */
  async uploadEnvelope(input: UploadInput): Promise<UploadResult> {
    if (input.kind === "EnvioDTE" || this.#boletaUpload === "dteupload") {
      return this.#withToken("dte", (token) => uploadDte(this.#ctx, token, input));
    }
    try {
      return await this.#withToken("boleta", (token) => uploadBoletaRest(this.#ctx, token, input));
    } catch (error) {
      const fallback = this.#boletaUpload === "rest-with-fallback" && error instanceof SiiTransientError &&
        (error.reason === "http" || error.reason === "network");
      if (!fallback) throw error;
      return this.#withToken("dte", (token) => uploadDte(this.#ctx, token, input));
    }
  }

  /** Envelope status (QueryEstUp, or the boleta REST status for boletas uploaded by REST). */
  getUploadStatus(query: UploadStatusQuery): Promise<EnvelopeStatus> {
    const channel = query.channel ?? (query.kind === "EnvioBOLETA" && this.#boletaUpload !== "dteupload" ? "boleta-rest" : "dteupload");
    if (channel === "boleta-rest") return this.#withToken("boleta", (token) => queryBoletaStatus(this.#ctx, token, query));
    return this.#withToken("dte", (token) => queryEstUp(this.#ctx, token, query));
  }

  /**
   * Whether the SII has this document and with these data: QueryEstDte for DTEs; for boletas (39/41) the boleta
   * REST API's one-boleta status — unless boletas go by DTEUpload (`boletaUpload: "dteupload"`), where the SOAP
   * services are the channel.
   */
  getDocumentStatus(query: DocumentStatusQuery): Promise<DocumentStatus> {
    if (BOLETA_TIPOS.has(query.tipo) && this.#boletaUpload !== "dteupload") {
      return this.#withToken("boleta", (token) => queryBoletaDocumentStatus(this.#ctx, token, query));
    }
    return this.#withToken("dte", (token) => queryEstDte(this.#ctx, token, query));
  }

  /** listarEventosHistDoc: the receiver's events on a 33/34/43 (and credit notes referencing it). Codes are data. */
  listReceiverEvents(query: ReceiverDocumentQuery): Promise<ReceiverEvents> {
    return this.#withToken("dte", (token) => queryReceiverEvents(this.#ctx, token, query));
  }

  /** consultarDocDteCedible: whether the document can be assigned (23/25 yes; 21/22/24 no; 20, 18…). */
  getAssignability(query: ReceiverDocumentQuery): Promise<ReceiverRegistryAnswer> {
    return this.#withToken("dte", (token) => queryAssignability(this.#ctx, token, query));
  }

  /** consultarFechaRecepcionSii: `YYYY-MM-DDTHH:MM:SS` (Chile's local time) or `null` when not received. */
  getSiiReceptionDate(query: ReceiverDocumentQuery): Promise<string | null> {
    return this.#withToken("dte", (token) => queryReceptionDate(this.#ctx, token, query));
  }

  /**
   * ingresarAceptacionReclamoDoc: the receiver accepts (ACD), acknowledges the goods (ERM) or claims (RCD, RFP, RFT).
   * Every `codResp` but -1 is returned as data (0 recorded, 7 already recorded…).
   */
  registerReceiverAction(query: ReceiverDocumentQuery & { accion: ReceiverAction }): Promise<ReceiverRegistryAnswer> {
    return this.#withToken("dte", (token) => registerAction(this.#ctx, token, query));
  }

  #authenticate(kind: TokenKind): Promise<string> {
    return kind === "dte" ? auth.authenticateDte(this.#ctx) : auth.authenticateBoleta(this.#ctx);
  }

  async #withToken<T>(kind: TokenKind, call: (token: string) => Promise<T>): Promise<T> {
    const first = await this.token(kind);
    try {
      return await call(first);
    } catch (error) {
      if (!(error instanceof SiiTransientError) || !REAUTH_REASONS.has(error.reason)) throw error;
      this.#tokens.invalidate(kind, first);
    }
    const second = await this.token(kind);
    try {
      return await call(second);
    } catch (error) {
      if (error instanceof SiiTransientError && REAUTH_REASONS.has(error.reason)) this.#tokens.invalidate(kind, second);
      throw error;
    }
  }
}

import { normalizeApiUrl } from "./api-url.js";
import { Auth } from "./resources/auth.js";
import { Businesses } from "./resources/businesses.js";
import { DteResource } from "./resources/dte.js";
import { Received } from "./resources/received.js";
import { Events } from "./resources/events.js";
import { Health } from "./resources/health.js";
import { Issuers } from "./resources/issuers.js";
import { Numerations } from "./resources/numerations.js";
import { Rut } from "./resources/rut.js";
import { Sandbox } from "./resources/sandbox.js";
import { Tokens } from "./resources/tokens.js";
import { type RequestOptions, Transport } from "./transport.js";
import type { Environment, Health as HealthResult } from "./types.js";
import { type Webhooks, webhooks } from "./webhooks.js";

export const SDK_VERSION = "0.1.0";
export const DEFAULT_BASE_URL = "http://localhost:3000/v1";

export interface TimbreOptions {
  /** `sk_test_…` / `sk_live_…`, sent as `X-API-Key`. */
  apiKey?: string;
  /** A session access token from `auth.login`, sent as `Authorization: Bearer`. */
  accessToken?: string;
  /** API root, with or without `/v1` and trailing slash (`normalizeApiUrl`; default `http://localhost:3000/v1`). */
  baseUrl?: string;
  /** Per-attempt timeout in ms (default 30 000: emission may wait up to 10 s for the SII). */
  timeout?: number;
  /** Retries after the first attempt for 429, 5xx and network errors (default 2). */
  maxRetries?: number;
  /** First back-off delay in ms (default 500); doubles each retry, with jitter, up to `maxRetryDelay`. */
  initialRetryDelay?: number;
  /** Back-off ceiling in ms (default 8 000). */
  maxRetryDelay?: number;
  /** For sessions: the business to act for on `/dte` and `/events` (`X-Business-Id`). */
  businessId?: string;
  /** For sessions: `test` (default on the server) or `live` (`X-Environment`). */
  environment?: Environment;
  /** A fetch implementation (instrumentation, tests, SSR frameworks). */
  fetch?: typeof fetch;
}

/**
 * The Timbre API client. Resources mirror the URLs: `client.dte.emit()` is `POST /v1/dte/emit`.
 *
 * @example
 * import { Timbre } from "@timbre/sdk";
 *
 * const client = new Timbre({ apiKey: process.env.TIMBRE_API_KEY });
 * const dte = await client.dte.emit({
 *   tipo: 39,
 *   receptor: { rut: "66666666-6", razon_social: "Consumidor final" },
 *   items: [{ nombre: "Café", cantidad: 2, precio: 1500 }],
 *   precios_brutos: true,
 * });
 */
export class Timbre {
  readonly auth: Auth;
  readonly businesses: Businesses;
  /** `GET /numerations/{id}` (also reachable as `businesses.numerations`). */
  readonly numerations: Numerations;
  readonly sandbox: Sandbox;
  readonly dte: DteResource;
  /** `/received`: documents suppliers sent the business (API.md §12). */
  readonly received: Received;
  /** `/issuers`: the SII's list of authorised electronic issuers (API.md §14). */
  readonly issuers: Issuers;
  readonly tokens: Tokens;
  readonly events: Events;
  readonly rut: Rut;
  /** Verify and sign webhook deliveries. */
  readonly webhooks: Webhooks = webhooks;

  private readonly options: TimbreOptions;
  private readonly healthResource: Health;

  /**
   * @example
   * const withKey = new Timbre({ apiKey: "sk_test_…", baseUrl: "https://api.example.cl/v1", maxRetries: 3 });
   * const withSession = new Timbre({ accessToken, businessId: "biz_…", environment: "test" });
   */
  constructor(options: TimbreOptions = {}) {
    this.options = { ...options };
    const transport = new Transport({
      baseUrl: normalizeApiUrl(options.baseUrl ?? DEFAULT_BASE_URL),
      apiKey: options.apiKey,
      accessToken: options.accessToken,
      businessId: options.businessId,
      environment: options.environment,
      timeout: options.timeout ?? 30_000,
      maxRetries: options.maxRetries ?? 2,
      initialRetryDelay: options.initialRetryDelay ?? 500,
      maxRetryDelay: options.maxRetryDelay ?? 8_000,
      fetch: options.fetch,
      // Browsers refuse to set User-Agent; only send it where a runtime allows it.
      userAgent: typeof window === "undefined" ? `timbre-sdk-js/${SDK_VERSION}` : undefined,
    });
    this.auth = new Auth(transport);
    this.businesses = new Businesses(transport);
    this.numerations = this.businesses.numerations;
    this.sandbox = new Sandbox(transport);
    this.dte = new DteResource(transport);
    this.received = new Received(transport);
    this.issuers = new Issuers(transport);
    this.tokens = new Tokens(transport);
    this.events = new Events(transport);
    this.rut = new Rut(transport);
    this.healthResource = new Health(transport);
  }

  /**
   * Service health (`GET /health`, no credential needed).
   *
   * @example
   * const { status, checks } = await client.health();
   */
  health(options?: RequestOptions): Promise<HealthResult> {
    return this.healthResource.check(options);
  }

  /**
   * A new client with some options changed (for example after login, or to act for another business).
   *
   * @example
   * const session = await client.auth.login({ email, password });
   * const authed = client.withOptions({ accessToken: session.access_token, businessId: "biz_…" });
   */
  withOptions(changes: TimbreOptions): Timbre {
    const next: TimbreOptions = { ...this.options, ...changes };
    // A new credential replaces the other kind rather than coexisting with it.
    if (changes.accessToken !== undefined && changes.apiKey === undefined) delete next.apiKey;
    if (changes.apiKey !== undefined && changes.accessToken === undefined) delete next.accessToken;
    return new Timbre(next);
  }
}

/** The two token families: SOAP/DTEUpload (`dte`) and the boleta REST API (`boleta`). */
export type TokenKind = "dte" | "boleta";

interface CachedToken {
  token: string;
  expiresAt: number;
}

/**
 * Caches one token per kind until its TTL passes, and shares one in-flight authentication between concurrent
 * callers. The clock is injected.
 *
 * @example
 * const cache = new TokenCache(60_000, () => new Date());
 * const token = await cache.obtain("dte", () => authenticate());
 */
export class TokenCache {
  readonly #tokens = new Map<TokenKind, CachedToken>();
  readonly #pending = new Map<TokenKind, Promise<string>>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => Date,
  ) {}

  /** A valid cached token or a new one from `authenticate`. */
  async obtain(kind: TokenKind, authenticate: () => Promise<string>): Promise<string> {
    const cached = this.#tokens.get(kind);
    if (cached !== undefined && cached.expiresAt > this.now().getTime()) return cached.token;
    const pending = this.#pending.get(kind);
    if (pending !== undefined) return pending;
    const promise = authenticate()
      .then((token) => {
        this.#tokens.set(kind, { token, expiresAt: this.now().getTime() + this.ttlMs });
        return token;
      })
      .finally(() => this.#pending.delete(kind));
    this.#pending.set(kind, promise);
    return promise;
  }

  /** Forgets a token (after the SII refused it), unless it was already replaced. */
  invalidate(kind: TokenKind, token?: string): void {
    const cached = this.#tokens.get(kind);
    if (cached !== undefined && (token === undefined || cached.token === token)) this.#tokens.delete(kind);
  }
}

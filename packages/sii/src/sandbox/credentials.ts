import { randomInt } from "node:crypto";

/** Which API a token belongs to (the boleta REST API has its own tokens). */
export type TokenScope = "dte" | "boleta";

/** A token the sandbox issued. */
export interface IssuedToken {
  token: string;
  scope: TokenScope;
  holderRut: string | null;
  expiresAt: number;
}

const TOKEN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * Seeds (12 digits, single use, TTL) and tokens (TTL) of the sandbox, on an injected clock.
 *
 * @example
 * const seed = credentials.newSeed();
 * credentials.consumeSeed(seed); // "ok", then "unknown"
 */
export class Credentials {
  readonly #seeds = new Map<string, number>();
  readonly #tokens = new Map<string, IssuedToken>();

  constructor(
    private readonly now: () => Date,
    private readonly seedTtlMs: number,
    private readonly tokenTtlMs: number,
  ) {}

  /** A new 12-digit seed. */
  newSeed(): string {
    let seed: string;
    do seed = String(randomInt(100_000_000_000, 999_999_999_999)); while (this.#seeds.has(seed));
    this.#seeds.set(seed, this.now().getTime() + this.seedTtlMs);
    return seed;
  }

  /** Uses a seed once: `ok`, `expired` or `unknown` (never issued or already used). */
  consumeSeed(seed: string): "ok" | "expired" | "unknown" {
    const expiresAt = this.#seeds.get(seed);
    if (expiresAt === undefined) return "unknown";
    this.#seeds.delete(seed);
    return expiresAt > this.now().getTime() ? "ok" : "expired";
  }

  /** Issues a token. */
  newToken(scope: TokenScope, holderRut: string | null): IssuedToken {
    let token = "";
    for (let i = 0; i < 13; i++) token += TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)];
    const issued = { token, scope, holderRut, expiresAt: this.now().getTime() + this.tokenTtlMs };
    this.#tokens.set(token, issued);
    return issued;
  }

  /** The token's state: `valid` (with its record), `expired` or `unknown` (also for a token of the other scope). */
  checkToken(token: string | null, scope: TokenScope): { status: "valid"; issued: IssuedToken } | { status: "expired" | "unknown" } {
    const issued = token === null ? undefined : this.#tokens.get(token);
    if (issued === undefined || issued.scope !== scope) return { status: "unknown" };
    if (issued.expiresAt <= this.now().getTime()) return { status: "expired" };
    return { status: "valid", issued };
  }

  /** Expires every token now (tests of re-authentication). */
  expireAllTokens(): void {
    for (const issued of this.#tokens.values()) issued.expiresAt = 0;
  }
}

/**
 * The `TOKEN` cookie of a request, or `null`.
 *
 * @example
 * tokenFromCookie("TOKEN=abc; other=1"); // "abc"
 */
export function tokenFromCookie(header: string | null): string | null {
  const match = /(?:^|;\s*)TOKEN=([^;]*)/.exec(header ?? "");
  return match?.[1] ? match[1] : null;
}

import type { RequestOptions } from "../transport.js";
import type { LoginParams, Me, RefreshParams, RegisterParams, Session, WithLastResponse } from "../types.js";
import { Resource } from "./resource.js";

/** `/auth`: accounts and sessions. Register, login and refresh need no credential and are never retried. */
export class Auth extends Resource {
  /**
   * Creates an account and returns its first session (`POST /auth/register`).
   *
   * @example
   * const session = await client.auth.register({ email: "ana@example.cl", password: "una clave larga", nombre: "Ana" });
   * const authed = client.withOptions({ accessToken: session.access_token });
   */
  register(params: RegisterParams, options?: RequestOptions): Promise<WithLastResponse<Session>> {
    return this.call({ method: "POST", path: "auth/register", json: params, noIdempotency: true, options });
  }

  /**
   * Exchanges email and password for a session (`POST /auth/login`).
   *
   * @example
   * const { access_token, refresh_token } = await client.auth.login({ email, password });
   */
  login(params: LoginParams, options?: RequestOptions): Promise<WithLastResponse<Session>> {
    return this.call({ method: "POST", path: "auth/login", json: params, noIdempotency: true, options });
  }

  /**
   * Rotates a refresh token into a new pair (`POST /auth/refresh`); the old refresh token dies.
   *
   * @example
   * const next = await client.auth.refresh({ refresh_token: stored.refresh_token });
   */
  refresh(params: RefreshParams, options?: RequestOptions): Promise<WithLastResponse<Session>> {
    return this.call({ method: "POST", path: "auth/refresh", json: params, noIdempotency: true, options });
  }

  /**
   * Who the current credential is (`GET /auth/me`).
   *
   * @example
   * const me = await client.auth.me();
   * console.log(me.user.email, me.auth.type);
   */
  me(options?: RequestOptions): Promise<WithLastResponse<Me>> {
    return this.call({ method: "GET", path: "auth/me", options });
  }
}

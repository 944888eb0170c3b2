/**
 * The signed-in session. The access token (15 min) lives only in memory; the refresh token lives in this tab's
 * sessionStorage so that a reload keeps the user signed in while closing the tab forgets it. Refresh tokens
 * rotate on every use, so refreshing is single-flight. Nothing else is ever written to storage except the
 * non-secret preferences in `prefs.ts`.
 */
import type { Session, User } from "@timbre/sdk";

const REFRESH_KEY = "timbre.refresh";

let accessToken: string | null = null;
let accessExpiresAt = 0;
let currentUser: User | null = null;
let refreshing: Promise<boolean> | null = null;
export type EndReason = "signout" | "expired";
const listeners = new Set<(reason: EndReason) => void>();

export function accessTokenNow(): string | null {
  return accessToken;
}

/** True when the access token is missing or expires within 30 s. */
export function accessTokenStale(now = Date.now()): boolean {
  return accessToken === null || now > accessExpiresAt - 30_000;
}

export function user(): User | null {
  return currentUser;
}

export function hasRefreshToken(): boolean {
  return readRefresh() !== null;
}

export function startSession(session: Session): void {
  accessToken = session.access_token;
  accessExpiresAt = Date.now() + session.expires_in * 1000;
  currentUser = session.user;
  writeRefresh(session.refresh_token);
}

export function setUser(next: User): void {
  currentUser = next;
}

/** Forgets the session; `expired` when the server refused it (listeners send the user to sign in again). */
export function endSession(reason: EndReason = "expired"): void {
  const wasSignedIn = currentUser !== null || readRefresh() !== null;
  accessToken = null;
  accessExpiresAt = 0;
  currentUser = null;
  writeRefresh(null);
  if (wasSignedIn) for (const listener of listeners) listener(reason);
}

export function onSessionEnd(listener: (reason: EndReason) => void): void {
  listeners.add(listener);
}

/** Trades the stored refresh token for a new pair; one request at a time. Resolves false when signed out. */
export function refreshSession(post: (refreshToken: string) => Promise<Session>): Promise<boolean> {
  if (refreshing) return refreshing;
  const token = readRefresh();
  if (token === null) return Promise.resolve(false);
  refreshing = post(token)
    .then((session) => {
      startSession(session);
      return true;
    })
    .catch(() => {
      endSession();
      return false;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

function readRefresh(): string | null {
  try {
    return sessionStorage.getItem(REFRESH_KEY);
  } catch {
    return null;
  }
}

function writeRefresh(value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(REFRESH_KEY);
    else sessionStorage.setItem(REFRESH_KEY, value);
  } catch {
    /* storage unavailable: the session lasts as long as the page */
  }
}

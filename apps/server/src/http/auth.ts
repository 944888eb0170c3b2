/**
 * The auth plugin: route options `{ permission: "dte:read" }` (or `"any"` for any valid credential) and
 * `{ business: true }` for routes that act for one business + environment (a session names it with
 * `X-Business-Id` / `X-Environment`). Both checks run at transform time, before body validation, so a caller
 * without a valid credential gets 401 whatever it sent. Handlers read `auth` (and `scope`) from the context.
 */
import { and, eq, isNull } from "drizzle-orm";
import { Elysia } from "elysia";
import type { Environment } from "../db/api-keys.js";
import { businesses, type BusinessRow } from "../db/businesses.js";
import type { Deps } from "../deps.js";
import type { Credential, Permission } from "./credential.js";
import { ApiError, invalidParameter, notFound } from "./errors.js";
import { stateOf } from "./request-state.js";

export interface BusinessScope {
  userId: string;
  businessId: string;
  environment: Environment;
  /** The business's row when the credential brought it (an API key's, read with the key). */
  business?: BusinessRow;
}

const scopes = new WeakMap<Request, BusinessScope>();

/** The business + environment the auth plugin verified for this request (routes with `business`), if any. */
export function businessScopeOf(request: Request): BusinessScope | undefined {
  return scopes.get(request);
}

/** The credential of the request, or 401. */
export function requireCredential(request: Request): Credential {
  const credential = stateOf(request).credential;
  if (credential === undefined) throw new ApiError("UNAUTHORIZED", "missing API key or session token");
  if (credential === "invalid") throw new ApiError("UNAUTHORIZED", "invalid, revoked or expired credential");
  return credential;
}

/** 403 unless the credential holds `permission`. */
export function requirePermission(credential: Credential, permission: Permission | "any"): void {
  if (permission === "any" || credential.permissions.includes(permission)) return;
  throw new ApiError("FORBIDDEN", `this credential lacks the permission ${permission}`, { required_permission: permission });
}

/**
 * The business + environment a credential acts for; a session names it by header, and must own it. With
 * `includeDeleted` a session also reaches its soft-deleted businesses (their documents stay downloadable, API.md
 * §6.2); a key of a deleted business is revoked, so it never gets here.
 */
export async function resolveBusinessScope(deps: Deps, credential: Credential, options: { includeDeleted?: boolean } = {}): Promise<BusinessScope> {
  if (credential.type === "api_key") {
    const scope: BusinessScope = { userId: credential.userId, businessId: credential.businessId, environment: credential.environment };
    if (credential.business?.id === credential.businessId) scope.business = credential.business;
    return scope;
  }
  if (!credential.businessId) throw invalidParameter("X-Business-Id", "required", "X-Business-Id header is required with a session");
  const [row] = await deps.db
    .select({ id: businesses.id })
    .from(businesses)
    .where(
      and(
        eq(businesses.id, credential.businessId),
        eq(businesses.userId, credential.userId),
        options.includeDeleted ? undefined : isNull(businesses.deletedAt),
      ),
    );
  if (!row) throw notFound("business");
  return { userId: credential.userId, businessId: row.id, environment: credential.environment };
}

export function authPlugin(deps: Deps) {
  return new Elysia({ name: "timbre.auth", seed: deps.instanceId })
    .macro({
      permission: (permission: Permission | "any") => ({
        transform({ request }: { request: Request }) {
          requirePermission(requireCredential(request), permission);
        },
        resolve({ request }: { request: Request }) {
          return { auth: requireCredential(request) };
        },
      }),
      /** `true`: a live business; `"read"`: for read routes, a session may also name its soft-deleted business. */
      business: (mode: boolean | "read") => ({
        async transform({ request }: { request: Request }) {
          if (mode === false) return;
          scopes.set(request, await resolveBusinessScope(deps, requireCredential(request), { includeDeleted: mode === "read" }));
        },
        resolve({ request }: { request: Request }) {
          const scope = scopes.get(request);
          if (!scope) throw new ApiError("INTERNAL_ERROR", "business scope not resolved");
          return { scope };
        },
      }),
    })
    .as("scoped");
}

/** The authenticated caller of a request, and the permission vocabulary (API.md §2). */
import type { Environment } from "../db/api-keys.js";
import type { BusinessRow } from "../db/businesses.js";

export const PERMISSIONS = [
  "dte:read",
  "dte:write",
  "businesses:read",
  "businesses:write",
  "numerations:read",
  "numerations:write",
  "tokens:read",
  "tokens:write",
  "received:read",
  "received:write",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export type Credential =
  | {
      type: "api_key";
      userId: string;
      keyId: string;
      keyName: string;
      businessId: string;
      environment: Environment;
      /** Expanded: `*` becomes every permission. */
      permissions: Permission[];
      /** The key's business as read with the key, at the start of the request (never sent or logged). */
      business?: BusinessRow;
    }
  | {
      type: "session";
      userId: string;
      /** From `X-Business-Id` / `X-Environment`, not yet checked against the user's businesses. */
      businessId: string | null;
      environment: Environment;
      permissions: Permission[];
    };

/** `*` and the named permissions, as stored on a key, to the explicit list. */
export function expandPermissions(stored: readonly string[]): Permission[] {
  if (stored.includes("*")) return [...PERMISSIONS];
  return PERMISSIONS.filter((p) => stored.includes(p));
}

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/**
 * The permissions an API key can hold (API.md §2): the one list the server checks and the SDK, CLI and dashboard
 * offer. `*` grants every one of them. Sessions hold all.
 */
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

/** What a key is created with: permissions, or `*` for all of them. */
export type PermissionGrant = Permission | "*";

import type { ApiKeyRow } from "../../db/api-keys.js";

export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  environment: string;
  permissions: string[];
  business_id: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export function presentKey(row: ApiKeyRow): KeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    last4: row.last4,
    environment: row.environment,
    permissions: row.permissions,
    business_id: row.businessId,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

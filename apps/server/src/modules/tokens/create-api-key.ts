import { and, eq, isNull } from "drizzle-orm";
import type { Deps } from "../../deps.js";
import { apiKeys, type Environment } from "../../db/api-keys.js";
import { businesses } from "../../db/businesses.js";
import { expandPermissions, type Credential } from "../../http/credential.js";
import { ApiError, notFound, validationError } from "../../http/errors.js";
import { newId } from "../../ids.js";
import { displayParts, generateApiKey, hashApiKey } from "./api-key-format.js";
import { presentKey, type KeyView } from "./present-key.js";

export interface CreateKeyInput {
  name: string;
  permissions: string[];
  environment?: Environment;
  business_id?: string;
}

/**
 * Mints a key for one business and environment. No escalation: a key may only mint keys for its own business
 * and environment with a subset of its own permissions (403 otherwise).
 */
export async function createApiKey(deps: Deps, caller: Credential, input: CreateKeyInput): Promise<KeyView & { key: string }> {
  const environment = input.environment ?? (caller.type === "api_key" ? caller.environment : "test");
  const businessId = input.business_id ?? caller.businessId;
  const permissions = input.permissions.includes("*") ? ["*"] : [...new Set(input.permissions)];
  if (caller.type === "api_key") {
    if (businessId !== caller.businessId) throw forbidden("a key can only create keys for its own business", "other_business");
    if (environment !== caller.environment) throw forbidden("a key can only create keys for its own environment", "other_environment");
    const missing = expandPermissions(permissions).find((p) => !caller.permissions.includes(p));
    if (missing) throw new ApiError("FORBIDDEN", `this key cannot grant ${missing}`, { required_permission: missing, reason: "escalation" });
  }
  if (!businessId) {
    throw validationError([{ path: "business_id", reason: "required", message: "is required (or send X-Business-Id)" }]);
  }
  const [business] = await deps.db
    .select({ id: businesses.id })
    .from(businesses)
    .where(and(eq(businesses.id, businessId), eq(businesses.userId, caller.userId), isNull(businesses.deletedAt)));
  if (!business) throw notFound("business");
  const key = generateApiKey(environment);
  const [row] = await deps.db
    .insert(apiKeys)
    .values({
      id: newId("apiKey"),
      userId: caller.userId,
      businessId: business.id,
      name: input.name.trim(),
      keyHash: hashApiKey(key),
      ...displayParts(key),
      environment,
      permissions,
      createdAt: deps.now(),
    })
    .returning();
  if (!row) throw new Error("insert returned nothing");
  return { ...presentKey(row), key };
}

function forbidden(message: string, reason: string): ApiError {
  return new ApiError("FORBIDDEN", message, { reason });
}

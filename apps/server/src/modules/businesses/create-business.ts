import { randomBytes } from "node:crypto";
import type { Static } from "@sinclair/typebox";
import { normalizeRut } from "@timbre/core/rut";
import type { Deps } from "../../deps.js";
import { businesses } from "../../db/businesses.js";
import { isUniqueViolation } from "../../db/pg-errors.js";
import type { Credential } from "../../http/credential.js";
import { ApiError, validationError } from "../../http/errors.js";
import { newId } from "../../ids.js";
import { encryptSecret } from "../../secrets.js";
import { generateWebhookSecret } from "../../webhooks/sign.js";
import { businessColumns, businessIssues } from "./business-fields.js";
import { presentBusiness, type BusinessView } from "./present-business.js";
import type { CreateBusinessBody } from "./schemas.js";

/** Registers a business for the session's user; with a webhook URL, its secret is returned this once. */
export async function createBusiness(deps: Deps, caller: Credential, input: Static<typeof CreateBusinessBody>): Promise<BusinessView> {
  if (caller.type !== "session") {
    throw new ApiError("FORBIDDEN", "an API key acts for its own business only; create businesses with a session", { reason: "session_required" });
  }
  const issues = businessIssues(deps, input);
  if (issues.length > 0) throw validationError(issues);
  const now = deps.now();
  const secret = input.webhook_url ? generateWebhookSecret() : null;
  try {
    const [row] = await deps.db
      .insert(businesses)
      .values({
        // The local part of the business's intercambio address (API.md §12): 128 random bits.
        intercambioToken: randomBytes(16).toString("hex"),
        razonSocial: input.razon_social,
        giro: input.giro,
        acteco: input.acteco,
        direccion: input.direccion,
        comuna: input.comuna,
        ...businessColumns(input),
        id: newId("business"),
        userId: caller.userId,
        rut: normalizeRut(input.rut),
        webhookSecretEnc: secret ? encryptSecret(deps.secrets.masterKey, secret) : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error("insert returned nothing");
    return secret ? { ...presentBusiness(row, deps.config.mail.inboundDomain), webhook_secret: secret } : presentBusiness(row, deps.config.mail.inboundDomain);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ApiError("CONFLICT", "you already registered a business with this RUT", { reason: "rut_taken", field: "rut" });
    }
    throw error;
  }
}

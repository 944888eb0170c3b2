import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.js";
import { businesses } from "../../db/businesses.js";
import type { Credential } from "../../http/credential.js";
import { encryptSecret } from "../../secrets.js";
import { generateWebhookSecret } from "../../webhooks/sign.js";
import { findBusiness } from "./find-business.js";

export const PREVIOUS_SECRET_TTL_MS = 24 * 3600 * 1000;

/** A new secret; the previous one keeps signing deliveries for 24 h (see `activeWebhookSecrets`). */
export async function rotateWebhookSecret(deps: Deps, caller: Credential, id: string): Promise<{ webhook_secret: string }> {
  const business = await findBusiness(deps, caller, id);
  const now = deps.now();
  const secret = generateWebhookSecret();
  await deps.db
    .update(businesses)
    .set({
      webhookSecretEnc: encryptSecret(deps.secrets.masterKey, secret),
      webhookSecretPrevEnc: business.webhookSecretEnc,
      webhookSecretPrevExpiresAt: business.webhookSecretEnc ? new Date(now.getTime() + PREVIOUS_SECRET_TTL_MS) : null,
      updatedAt: now,
    })
    .where(eq(businesses.id, business.id));
  return { webhook_secret: secret };
}

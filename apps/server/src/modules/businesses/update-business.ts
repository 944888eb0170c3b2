import type { Static } from "@sinclair/typebox";
import { tryParseRut } from "@timbre/core/rut";
import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.js";
import { businesses } from "../../db/businesses.js";
import type { Credential } from "../../http/credential.js";
import { validationError } from "../../http/errors.js";
import { encryptSecret } from "../../secrets.js";
import { generateWebhookSecret } from "../../webhooks/sign.js";
import { businessColumns, businessIssues } from "./business-fields.js";
import { findBusiness } from "./find-business.js";
import { mailboxColumns } from "./mailbox-columns.js";
import { presentBusiness, type BusinessView } from "./present-business.js";
import type { UpdateBusinessBody } from "./schemas.js";

/**
 * Partial update; the RUT cannot change. Setting the first webhook URL returns its new secret once; the mailbox URL
 * (`intercambio.imap_url`) is sealed and never returned.
 */
export async function updateBusiness(deps: Deps, caller: Credential, id: string, input: Static<typeof UpdateBusinessBody>): Promise<BusinessView> {
  const current = await findBusiness(deps, caller, id);
  const issues = businessIssues(deps, input);
  if (input.rut !== undefined) {
    const parsed = tryParseRut(input.rut);
    if (!parsed || `${parsed.body}-${parsed.dv}` !== current.rut) {
      issues.unshift({ path: "rut", reason: "not_allowed", message: "the RUT of a business cannot change" });
    }
  }
  if (issues.length > 0) throw validationError(issues);
  const secret = input.webhook_url && current.webhookSecretEnc === null ? generateWebhookSecret() : null;
  const [row] = await deps.db
    .update(businesses)
    .set({
      ...businessColumns(input),
      ...mailboxColumns(deps, current, input.intercambio?.imap_url),
      ...(secret ? { webhookSecretEnc: encryptSecret(deps.secrets.masterKey, secret) } : {}),
      updatedAt: deps.now(),
    })
    .where(eq(businesses.id, current.id))
    .returning();
  if (!row) throw new Error("update returned nothing");
  return secret ? { ...presentBusiness(row, deps.config.mail.inboundDomain), webhook_secret: secret } : presentBusiness(row, deps.config.mail.inboundDomain);
}

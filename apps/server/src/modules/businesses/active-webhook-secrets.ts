import type { BusinessRow } from "../../db/businesses.js";
import { decryptSecretText } from "../../secrets.js";

/** The secrets that sign a delivery now: the current one, plus the previous one during its 24 h overlap. */
export function activeWebhookSecrets(masterKey: Buffer, business: BusinessRow, now: Date): string[] {
  const secrets: string[] = [];
  if (business.webhookSecretEnc) secrets.push(decryptSecretText(masterKey, business.webhookSecretEnc));
  const prevValid = business.webhookSecretPrevExpiresAt !== null && business.webhookSecretPrevExpiresAt.getTime() > now.getTime();
  if (business.webhookSecretPrevEnc && prevValid) secrets.push(decryptSecretText(masterKey, business.webhookSecretPrevEnc));
  return secrets;
}

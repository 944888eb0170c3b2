/**
 * `certificate.expiring`: the business's signing certificate ends within 30 days — once per certificate
 * (fingerprint). The certificate serves both environments; the event goes to each environment in which the
 * business has numerations (where it emits), or to `test` when it has none.
 */
import { isNotNull, isNull, and } from "drizzle-orm";
import type { Environment } from "../db/api-keys.js";
import { businesses } from "../db/businesses.js";
import { numerations } from "../db/numerations.js";
import type { Tx } from "../db/tx.js";
import { recordEventOnce } from "./record-event-once.js";

export const CERTIFICATE_EXPIRY_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;

export async function checkCertificates(tx: Tx, now: Date): Promise<number> {
  const rows = await tx
    .select({ id: businesses.id, certificate: businesses.certificate })
    .from(businesses)
    .where(and(isNull(businesses.deletedAt), isNotNull(businesses.certificate)));
  const envRows = await tx.selectDistinct({ businessId: numerations.businessId, environment: numerations.environment }).from(numerations);
  let recorded = 0;
  for (const { id, certificate } of rows) {
    if (!certificate) continue;
    const validTo = Date.parse(certificate.valid_to);
    if (!Number.isFinite(validTo)) continue;
    const left = validTo - now.getTime();
    if (left <= 0 || left > CERTIFICATE_EXPIRY_WARNING_DAYS * DAY_MS) continue;
    const environments: Environment[] = envRows.filter((r) => r.businessId === id).map((r) => r.environment);
    const data = {
      rut_titular: certificate.rut_titular,
      serial: certificate.serial,
      valid_to: certificate.valid_to,
      dias_restantes: Math.ceil(left / DAY_MS),
    };
    for (const environment of environments.length > 0 ? environments : (["test"] as const)) {
      const subject = { fingerprint_sha256: certificate.fingerprint_sha256 };
      if (await recordEventOnce(tx, { businessId: id, environment, event: "certificate.expiring", at: now, data }, subject)) recorded++;
    }
  }
  return recorded;
}

/**
 * A business's intercambio address (API.md §12 door 2): `<token>@<INBOUND_DOMAIN>`, the token 128 random bits in
 * hex, set on first use and never changed (the business registers it at the SII). Also the reverse lookup the SMTP
 * receiver uses. In sandbox mode the SII's list of electronic issuers (§14, `modules/issuers/issuer-of.ts`) gives
 * these addresses for the businesses of this Timbre.
 */
import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { businesses, type BusinessRow } from "../../db/businesses.js";
import type { Deps } from "../../deps.js";

const TOKEN = /^[0-9a-f]{32}$/;

/** The business's token, creating it when the row has none yet. */
export async function intercambioToken(deps: Deps, business: Pick<BusinessRow, "id" | "intercambioToken">): Promise<string> {
  if (business.intercambioToken) return business.intercambioToken;
  const fresh = randomBytes(16).toString("hex");
  await deps.db.update(businesses).set({ intercambioToken: fresh }).where(and(eq(businesses.id, business.id), isNull(businesses.intercambioToken)));
  const [row] = await deps.db.select({ token: businesses.intercambioToken }).from(businesses).where(eq(businesses.id, business.id));
  return row?.token ?? fresh;
}

/** `business.intercambio.email`. */
export async function intercambioEmail(deps: Deps, business: Pick<BusinessRow, "id" | "intercambioToken">): Promise<string> {
  return `${await intercambioToken(deps, business)}@${deps.config.mail.inboundDomain}`;
}

/** The business an inbound address belongs to (case-insensitive), or null: unknown recipients are refused. */
export async function businessOfAddress(deps: Deps, address: string): Promise<BusinessRow | null> {
  const at = address.lastIndexOf("@");
  if (at < 0) return null;
  const local = address.slice(0, at).toLowerCase();
  const domain = address.slice(at + 1).toLowerCase();
  if (domain !== deps.config.mail.inboundDomain || !TOKEN.test(local)) return null;
  const [row] = await deps.db.select().from(businesses).where(and(eq(businesses.intercambioToken, local), isNull(businesses.deletedAt)));
  return row ?? null;
}

/**
 * `POST /sandbox/numerations` (API.md §9): the sandbox authority issues a CAF for the business — next free range
 * of that tipo, FA = today in Chile — and it is stored through the very path of an upload (`storeCaf`).
 */
import { issueCaf } from "@timbre/core/caf";
import { and, eq, max } from "drizzle-orm";
import { businesses } from "../../db/businesses.js";
import { numerations } from "../../db/numerations.js";
import type { Deps } from "../../deps.js";
import type { Environment } from "../../db/api-keys.js";
import { ApiError, notFound } from "../../http/errors.js";
import { chileToday } from "../../time.js";
import { presentNumeration, type NumerationView } from "./present-numeration.js";
import { cafTextBytes } from "./read-caf-upload.js";
import { storeCaf } from "./store-caf.js";

export interface SandboxNumerationInput {
  tipo: number;
  cantidad: number;
}

const ENVIRONMENT = "test" as const;
const ATTEMPTS = 3;

export async function issueSandboxNumeration(deps: Deps, scope: { businessId: string; environment: Environment }, input: SandboxNumerationInput): Promise<NumerationView> {
  const gateway = await deps.sii();
  const authority = gateway.sandboxAuthority;
  if (deps.config.siiMode !== "sandbox" || !authority) throw notFound("route");
  // The sandbox's CAFs are test CAFs: a live credential (sk_live_, or a session in X-Environment: live) never gets one.
  if (scope.environment !== ENVIRONMENT) {
    throw new ApiError("FORBIDDEN", "the sandbox issues CAFs for the test environment only: use a sk_test_ key", { reason: "live_environment", environment: scope.environment });
  }
  const businessId = scope.businessId;
  const [business] = await deps.db.select().from(businesses).where(eq(businesses.id, businessId));
  if (!business) throw notFound("business");
  for (let attempt = 1; ; attempt++) {
    const desde = (await highestHasta(deps, businessId, input.tipo)) + 1;
    const { xml } = issueCaf({
      authority,
      rut: business.rut,
      razonSocial: latin1Only(business.razonSocial).slice(0, 40),
      tipo: input.tipo,
      desde,
      hasta: desde + input.cantidad - 1,
      fechaAutorizacion: chileToday(deps.now()),
    });
    try {
      const row = await storeCaf(deps, { businessId, rut: business.rut, environment: ENVIRONMENT }, cafTextBytes(xml));
      return presentNumeration(row, chileToday(deps.now()));
    } catch (error) {
      // A concurrent request took the same range: issue the next one.
      if (!(error instanceof ApiError && error.apiCode === "CONFLICT") || attempt >= ATTEMPTS) throw error;
    }
  }
}

async function highestHasta(deps: Deps, businessId: string, tipo: number): Promise<number> {
  const [row] = await deps.db
    .select({ top: max(numerations.hasta) })
    .from(numerations)
    .where(and(eq(numerations.businessId, businessId), eq(numerations.environment, ENVIRONMENT), eq(numerations.tipo, tipo)));
  return row?.top ?? 0;
}

/** The SII's RS is ISO-8859-1: other characters become `?`. */
function latin1Only(text: string): string {
  return text.replace(/[^\u0000-\u00ff]/gu, "?");
}

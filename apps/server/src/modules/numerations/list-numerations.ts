import { and, count, desc, eq, gt, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { numerations } from "../../db/numerations.js";
import type { Deps } from "../../deps.js";
import type { Credential } from "../../http/credential.js";
import { invalidParameter } from "../../http/errors.js";
import type { PageRequest } from "../../http/envelope.js";
import { chileToday } from "../../time.js";
import { findBusiness } from "../businesses/find-business.js";
import { presentNumeration, type NumerationView } from "./present-numeration.js";
import { ESTADOS, SUPPORTED_TIPOS, type Estado } from "./schemas.js";

export interface NumerationFilters {
  tipo?: string | undefined;
  estado?: string | undefined;
}

/** A business's numerations in the caller's environment, newest first; `estado` is computed on today's date. */
export async function listNumerations(
  deps: Deps,
  caller: Credential,
  businessId: string,
  filters: NumerationFilters,
  page: PageRequest,
): Promise<{ items: NumerationView[]; total: number }> {
  const conditions = filterConditions(filters, chileToday(deps.now()));
  const business = await findBusiness(deps, caller, businessId);
  const where = and(eq(numerations.businessId, business.id), eq(numerations.environment, caller.environment), ...conditions);
  const [total] = await deps.db.select({ n: count() }).from(numerations).where(where);
  const rows = await deps.db
    .select()
    .from(numerations)
    .where(where)
    .orderBy(desc(numerations.createdAt), desc(numerations.id))
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
  const today = chileToday(deps.now());
  return { items: rows.map((row) => presentNumeration(row, today)), total: total?.n ?? 0 };
}

function filterConditions(filters: NumerationFilters, today: string): SQL[] {
  const out: SQL[] = [];
  if (filters.tipo !== undefined && filters.tipo !== "") {
    const tipo = Number(filters.tipo);
    if (!/^\d+$/.test(filters.tipo)) throw invalidParameter("tipo", "type", "tipo must be an integer");
    if (!(SUPPORTED_TIPOS as readonly number[]).includes(tipo)) throw invalidParameter("tipo", "enum", `tipo must be one of ${SUPPORTED_TIPOS.join(", ")}`);
    out.push(eq(numerations.tipo, tipo));
  }
  if (filters.estado !== undefined && filters.estado !== "") {
    if (!(ESTADOS as readonly string[]).includes(filters.estado)) throw invalidParameter("estado", "enum", `estado must be one of ${ESTADOS.join(", ")}`);
    out.push(estadoCondition(filters.estado as Estado, today));
  }
  return out;
}

/** Same rule as core's `rangeStatus`: agotada wins over vencida. */
function estadoCondition(estado: Estado, today: string): SQL {
  const exhausted = sql`${numerations.siguiente} > ${numerations.hasta}`;
  const left = sql`${numerations.siguiente} <= ${numerations.hasta}`;
  const expired = and(isNotNull(numerations.venceEl), lte(numerations.venceEl, today));
  const unexpired = or(isNull(numerations.venceEl), gt(numerations.venceEl, today));
  if (estado === "agotada") return exhausted;
  if (estado === "vencida") return and(left, expired) as SQL;
  return and(left, unexpired) as SQL;
}

/**
 * `GET /v1/dte`: the business/environment's documents, newest first; filters `tipo`, `desde`/`hasta` (inclusive,
 * on the tax date `fecha`), `estado`, `folio`, `receptor_rut`, and (extension) `aceptacion`: the receiver's answer to
 * a factura as last asked (`dispatch/acceptance.ts`; e.g. `RECLAMADO`, the facturas to annul). A bad value is 400
 * INVALID_PARAMETER.
 */
import { and, count, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import { isDocumentState } from "@timbre/core/lifecycle";
import { normalizeRut, tryParseRut } from "@timbre/core/rut";
import { documentHeadColumns, documents } from "../../db/documents.js";
import { ACCEPTANCE_STATES } from "../../dispatch/acceptance.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import type { PageRequest } from "../../http/envelope.js";
import { invalidParameter } from "../../http/errors.js";
import { presentDocument, type DteView } from "./present-document.js";
import { MAX_STORED_FOLIO } from "./resolve-references.js";
import { EMIT_TIPOS } from "./schemas.js";

type Query = Record<string, string | undefined>;

function isRealDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function present(query: Query, name: string): string | null {
  const value = query[name];
  return value === undefined || value === "" ? null : value;
}

/** The filters as SQL conditions (throws INVALID_PARAMETER naming the parameter). */
export function readFilters(query: Query): SQL[] {
  const filters: SQL[] = [];
  const tipo = present(query, "tipo");
  if (tipo !== null) {
    if (!/^\d+$/.test(tipo) || !(EMIT_TIPOS as readonly number[]).includes(Number(tipo))) throw invalidParameter("tipo", "enum", `tipo must be one of ${EMIT_TIPOS.join(", ")}`);
    filters.push(eq(documents.tipo, Number(tipo)));
  }
  for (const [name, op] of [["desde", gte], ["hasta", lte]] as const) {
    const value = present(query, name);
    if (value === null) continue;
    if (!isRealDate(value)) throw invalidParameter(name, "format", `${name} must be a date YYYY-MM-DD`);
    filters.push(op(documents.fecha, value));
  }
  const desde = present(query, "desde");
  const hasta = present(query, "hasta");
  if (desde !== null && hasta !== null && desde > hasta) throw invalidParameter("hasta", "minimum", "hasta must not be before desde");
  const estado = present(query, "estado");
  if (estado !== null) {
    if (!isDocumentState(estado)) throw invalidParameter("estado", "enum", "estado must be PENDIENTE, ENVIADO, ACEPTADO, ACEPTADO_CON_REPAROS or RECHAZADO");
    filters.push(eq(documents.estado, estado));
  }
  const folio = present(query, "folio");
  if (folio !== null) {
    if (!/^\d{1,10}$/.test(folio) || Number(folio) < 1) throw invalidParameter("folio", "format", "folio must be a positive integer");
    if (Number(folio) > MAX_STORED_FOLIO) throw invalidParameter("folio", "maximum", `folio must be ≤ ${MAX_STORED_FOLIO}`);
    filters.push(eq(documents.folio, Number(folio)));
  }
  const aceptacion = present(query, "aceptacion");
  if (aceptacion !== null) {
    if (!(ACCEPTANCE_STATES as readonly string[]).includes(aceptacion)) throw invalidParameter("aceptacion", "enum", `aceptacion must be one of ${ACCEPTANCE_STATES.join(", ")}`);
    filters.push(sql`${documents.acceptance} is not null`, sql`(${documents.acceptance}->>'estado') = ${aceptacion}`);
  }
  const rut = present(query, "receptor_rut");
  if (rut !== null) {
    if (!tryParseRut(rut)) throw invalidParameter("receptor_rut", "invalid_rut", "receptor_rut is not a valid RUT");
    filters.push(eq(documents.receptorRut, normalizeRut(rut)));
  }
  return filters;
}

export async function listDocuments(deps: Deps, scope: BusinessScope, page: PageRequest, query: Query): Promise<{ items: DteView[]; total: number }> {
  const where = and(eq(documents.businessId, scope.businessId), eq(documents.environment, scope.environment), ...readFilters(query));
  const [total] = await deps.db.select({ n: count() }).from(documents).where(where);
  // The head only: a page shows no payload (XML, TED, request, computed), which lives out of line (migration 0011).
  const rows = await deps.db
    .select(documentHeadColumns)
    .from(documents)
    .where(where)
    .orderBy(desc(documents.createdAt), desc(documents.id))
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
  return { items: rows.map(presentDocument), total: Number(total?.n ?? 0) };
}

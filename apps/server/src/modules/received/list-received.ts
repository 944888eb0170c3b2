/** `GET /received` (filters `emisor_rut`, `tipo`, `estado`, `desde`, `hasta` on `fecha`; newest first) and `GET /received/inbox`. */
import { and, count, desc, eq, gte, lte, type SQL } from "drizzle-orm";
import { isValidRut, normalizeRut } from "@timbre/core/rut";
import { receivedDocuments, receivedInbox, type ReceivedState } from "../../db/received.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import type { PageRequest } from "../../http/envelope.js";
import { invalidParameter } from "../../http/errors.js";
import { presentReceived } from "./present-received.js";

const STATES: readonly ReceivedState[] = ["SIN_RESPUESTA", "ACEPTADO", "RECLAMADO", "ACEPTADO_TACITO", "NO_APLICA"];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function filters(scope: BusinessScope, query: Record<string, string | undefined>): SQL[] {
  const where: SQL[] = [eq(receivedDocuments.businessId, scope.businessId), eq(receivedDocuments.environment, scope.environment)];
  const { emisor_rut, tipo, estado, desde, hasta } = query;
  if (emisor_rut) {
    if (!isValidRut(emisor_rut)) throw invalidParameter("emisor_rut", "invalid_rut", "emisor_rut is not a valid RUT");
    where.push(eq(receivedDocuments.emisorRut, normalizeRut(emisor_rut)));
  }
  if (tipo) {
    if (!/^\d{2,3}$/.test(tipo)) throw invalidParameter("tipo", "type", "tipo must be an integer");
    where.push(eq(receivedDocuments.tipo, Number(tipo)));
  }
  if (estado) {
    if (!(STATES as readonly string[]).includes(estado)) throw invalidParameter("estado", "enum", `estado must be one of ${STATES.join(", ")}`);
    where.push(eq(receivedDocuments.estado, estado as ReceivedState));
  }
  for (const [name, value, op] of [["desde", desde, gte], ["hasta", hasta, lte]] as const) {
    if (!value) continue;
    if (!DATE.test(value) || Number.isNaN(Date.parse(value))) throw invalidParameter(name, "format", `${name} must be a date YYYY-MM-DD`);
    where.push(op(receivedDocuments.fecha, value));
  }
  return where;
}

export async function listReceived(deps: Deps, scope: BusinessScope, query: Record<string, string | undefined>, page: PageRequest) {
  const where = and(...filters(scope, query));
  const [rows, [total]] = await Promise.all([
    deps.db.select().from(receivedDocuments).where(where).orderBy(desc(receivedDocuments.createdAt), desc(receivedDocuments.id)).limit(page.limit).offset((page.page - 1) * page.limit),
    deps.db.select({ n: count() }).from(receivedDocuments).where(where),
  ]);
  return { items: rows.map(presentReceived), total: total?.n ?? 0 };
}

/** Messages that could not be imported in the last 30 days. */
export async function listInbox(deps: Deps, scope: BusinessScope, page: PageRequest) {
  const since = new Date(deps.now().getTime() - 30 * 24 * 3600 * 1000);
  const where = and(eq(receivedInbox.businessId, scope.businessId), eq(receivedInbox.environment, scope.environment), gte(receivedInbox.createdAt, since));
  const [rows, [total]] = await Promise.all([
    deps.db.select().from(receivedInbox).where(where).orderBy(desc(receivedInbox.createdAt)).limit(page.limit).offset((page.page - 1) * page.limit),
    deps.db.select({ n: count() }).from(receivedInbox).where(where),
  ]);
  const items = rows.map((r) => ({ id: r.id, source: r.source, reason: r.reason, detail: r.detail, from: r.sender, subject: r.subject, filename: r.filename, created_at: r.createdAt.toISOString() }));
  return { items, total: total?.n ?? 0 };
}

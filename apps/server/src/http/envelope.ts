/** Success envelopes (API.md §1, §6.9). Error envelopes are built only in errors.ts. */
import { Type, type TSchema } from "@sinclair/typebox";
import { invalidParameter } from "./errors.js";

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  total_pages: number;
}

export const ok = <T>(data: T) => ({ success: true as const, data });

export const paginated = <T>(data: T[], pagination: Pagination) => ({ success: true as const, data, pagination });

export function pagination(page: number, limit: number, total: number): Pagination {
  return { page, limit, total, total_pages: Math.ceil(total / limit) };
}

export interface PageRequest {
  page: number;
  limit: number;
}

/**
 * `page` ≥ 1 (default 1), `limit` 1–100 (default 20) → 400 INVALID_PARAMETER naming the parameter. Read by hand:
 * Elysia's coercing query validation loses the parameter name in its errors.
 */
export function readPage(query: Record<string, string | undefined>): PageRequest {
  return { page: readInt(query, "page", 1, 1, 1_000_000), limit: readInt(query, "limit", 20, 1, 100) };
}

function readInt(query: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = query[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^-?\d+$/.test(raw)) throw invalidParameter(name, "type", `${name} must be an integer`);
  const n = Number(raw);
  if (n < min) throw invalidParameter(name, "minimum", `${name} must be ≥ ${min}`);
  if (n > max) throw invalidParameter(name, "maximum", `${name} must be ≤ ${max}`);
  return n;
}

/** OpenAPI parameters of every list. */
export const pageParameters: { name: string; in: "query"; required: false; schema: { type: "integer"; minimum: number; maximum?: number; default: number } }[] = [
  { name: "page", in: "query", required: false, schema: { type: "integer", minimum: 1, default: 1 } },
  { name: "limit", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
];

export const PaginationSchema = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  total_pages: Type.Integer(),
});

/** OpenAPI response schemas. */
export const Ok = <T extends TSchema>(data: T) => Type.Object({ success: Type.Literal(true), data });
export const OkList = <T extends TSchema>(item: T) =>
  Type.Object({ success: Type.Literal(true), data: Type.Array(item), pagination: PaginationSchema });

export const ErrorSchema = Type.Object({
  success: Type.Literal(false),
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    request_id: Type.String(),
  }),
});

/** Success envelopes (API.md §1, §6.9). Error envelopes are built only in errors.ts. */
import { Type, type TSchema } from "@sinclair/typebox";
import { t } from "elysia";

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

/** Query of every list: `page` ≥ 1 (default 1), `limit` 1–100 (default 20). Elysia's `t` coerces query text. */
export const PageQuery = t.Object({
  page: t.Optional(t.Integer({ minimum: 1 })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })),
});

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

import { Flags } from "@oclif/core";
import type { Page, PagePromise } from "@timbre/sdk";

/** Flags shared by every list command. */
export const listFlags = {
  page: Flags.integer({ description: "page number", min: 1 }),
  limit: Flags.integer({ description: "items per page (1–100)", min: 1, max: 100 }),
  all: Flags.boolean({ description: "fetch every page", default: false }),
};

/** One page, or every item of every page when `--all`, as a page-shaped result. */
export async function collect<T>(list: PagePromise<T>, all: boolean): Promise<Page<T>> {
  if (!all) return list;
  const data = await list.toArray({ max: 100_000 });
  return { data, pagination: { page: 1, limit: data.length, total: data.length, total_pages: 1 } };
}

/** "page 1/3 · 45 total" footer. */
export function pageFooter({ pagination }: Page<unknown>): string {
  return `page ${pagination.page}/${Math.max(1, pagination.total_pages)} · ${pagination.total} total`;
}

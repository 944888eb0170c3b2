import type { ListParams, Page } from "./types.js";

/** Fetches one page of a list given the page number. */
export type PageFetcher<T> = (page: number) => Promise<Page<T>>;

/**
 * What every `list()` returns: await it for one page (`{ data, pagination }`), or iterate it with
 * `for await` to walk every item of every page (pages are fetched lazily, one at a time).
 *
 * @example
 * const first = await client.dte.list({ tipo: 33 });
 * console.log(first.pagination.total);
 *
 * for await (const dte of client.dte.list({ tipo: 33 })) {
 *   console.log(dte.folio, dte.estado);
 * }
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  private first: Promise<Page<T>> | undefined;

  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly startPage: number = 1,
  ) {}

  /**
   * Builds a PagePromise for a list call whose params carry `page`/`limit` (used by resources).
   *
   * @example
   * const list = PagePromise.from({ limit: 50 }, (query) => fetchPage(query));
   */
  static from<T, P extends ListParams>(params: P | undefined, fetch: (params: P) => Promise<Page<T>>): PagePromise<T> {
    const base = (params ?? {}) as P;
    return new PagePromise<T>((page) => fetch({ ...base, page }), base.page ?? 1);
  }

  private firstPage(): Promise<Page<T>> {
    this.first ??= this.fetchPage(this.startPage);
    return this.first;
  }

  /**
   * Thenable on purpose: `await client.x.list()` gives the first page; nothing is fetched until awaited or iterated.
   *
   * @example
   * const { data, pagination } = await client.dte.list({ limit: 10 });
   */
  then<R1 = Page<T>, R2 = never>(
    onfulfilled?: ((value: Page<T>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.firstPage().then(onfulfilled, onrejected);
  }

  /**
   * @example
   * const page = await client.dte.list().catch(() => ({ data: [], pagination: { page: 1, limit: 0, total: 0, total_pages: 0 } }));
   */
  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page<T> | R> {
    return this.firstPage().catch(onrejected);
  }

  /**
   * @example
   * await client.dte.list().finally(() => spinner.stop());
   */
  finally(onfinally?: (() => void) | null): Promise<Page<T>> {
    return this.firstPage().finally(onfinally);
  }

  /**
   * Every page, starting at the requested one, fetched one at a time.
   *
   * @example
   * for await (const page of client.dte.list({ limit: 100 }).pages()) console.log(page.pagination.page, page.data.length);
   */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page = this.startPage;
    let current = await this.firstPage();
    for (;;) {
      yield current;
      const { total_pages } = current.pagination;
      if (current.data.length === 0 || page >= total_pages) return;
      page += 1;
      current = await this.fetchPage(page);
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.pages()) yield* page.data;
  }

  /**
   * Collects items of every page into an array, stopping at `max` items.
   *
   * @example
   * const keys = await client.tokens.list().toArray({ max: 500 });
   */
  async toArray({ max = 10_000 }: { max?: number } = {}): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) {
      if (items.length >= max) break;
      items.push(item);
    }
    return items;
  }
}

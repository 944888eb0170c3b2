<?php
declare(strict_types=1);

namespace Timbre;

/**
 * What every `list()` returns. `foreach` walks every item of every page, fetching pages lazily (one request per
 * page of `limit` items, nothing before the loop starts); `firstPage()` gives one page with its totals, `pages()`
 * page after page.
 *
 * @implements \IteratorAggregate<int, array<string, mixed>>
 */
final class ListIterator implements \IteratorAggregate
{
    /** @param \Closure(int): array{0: list<array<string, mixed>>, 1: ?array<string, int>} $fetch */
    public function __construct(private readonly \Closure $fetch, private readonly int $startPage = 1)
    {
    }

    public function firstPage(): Page
    {
        return $this->page($this->startPage);
    }

    /** @return \Generator<int, Page> */
    public function pages(): \Generator
    {
        for ($number = $this->startPage; ; $number++) {
            $page = $this->page($number);
            yield $page;
            if ($page->data === [] || $number >= (int) ($page->pagination['total_pages'] ?? 0)) {
                return;
            }
        }
    }

    /** @return \Generator<int, array<string, mixed>> */
    public function getIterator(): \Generator
    {
        $index = 0;
        foreach ($this->pages() as $page) {
            foreach ($page->data as $item) {
                yield $index++ => $item;
            }
        }
    }

    /** @return list<array<string, mixed>> every item of every page, up to `$max` */
    public function toArray(int $max = 10000): array
    {
        $items = [];
        foreach ($this as $item) {
            if (count($items) >= $max) {
                break;
            }
            $items[] = $item;
        }
        return $items;
    }

    private function page(int $number): Page
    {
        [$data, $pagination] = ($this->fetch)($number);
        $count = count($data);
        return new Page($data, $pagination ?? ['page' => 1, 'limit' => $count, 'total' => $count, 'total_pages' => 1]);
    }
}

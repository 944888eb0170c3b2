<?php
declare(strict_types=1);

namespace Timbre;

/** One page of a list: `data` (the items) and `pagination` (`page`, `limit`, `total`, `total_pages`). */
final class Page
{
    /**
     * @param list<array<string, mixed>> $data
     * @param array<string, int> $pagination
     */
    public function __construct(public readonly array $data, public readonly array $pagination)
    {
    }
}

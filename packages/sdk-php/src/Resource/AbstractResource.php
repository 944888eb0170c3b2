<?php
declare(strict_types=1);

namespace Timbre\Resource;

use Timbre\ListIterator;
use Timbre\Transport;

/** @internal */
abstract class AbstractResource
{
    public function __construct(protected readonly Transport $transport)
    {
    }

    /**
     * @param array<string, mixed> $query
     * @param array{idempotency_key?: string, raw?: bool, idempotent?: bool, content_type?: string} $call
     */
    protected function call(string $method, string $path, array $query = [], mixed $body = null, array $call = []): mixed
    {
        return $this->transport->request($method, $path, $query, $body, $call)[0];
    }

    /** @param array<string, mixed> $filters */
    protected function paginate(string $path, array $filters): ListIterator
    {
        $fetch = fn (int $page): array => $this->transport->request('GET', $path, ['page' => $page] + $filters);
        return new ListIterator($fetch, (int) ($filters['page'] ?? 1));
    }

    /** One path segment, escaped (an id can never walk to another route). */
    protected static function seg(string $value): string
    {
        return rawurlencode($value);
    }

    /**
     * Per-call options: `idempotency_key` for a POST (default: one generated per call, reused by its retries).
     *
     * @param array{idempotency_key?: string} $options
     * @return array{idempotency_key?: string}
     */
    protected static function opts(array $options): array
    {
        return isset($options['idempotency_key']) ? ['idempotency_key' => (string) $options['idempotency_key']] : [];
    }
}

<?php
declare(strict_types=1);

namespace Timbre;

/** The last successful answer: status, headers (lower-case names), request id, whether it was an idempotent replay. */
final class Response
{
    public readonly ?string $requestId;
    public readonly bool $idempotentReplayed;

    /** @param array<string, string> $headers */
    public function __construct(public readonly int $status, public readonly array $headers)
    {
        $this->requestId = $headers['request-id'] ?? null;
        $this->idempotentReplayed = ($headers['idempotent-replayed'] ?? '') === 'true';
    }
}

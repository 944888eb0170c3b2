<?php
declare(strict_types=1);

namespace Timbre\Exception;

/** 429: slow down; `retryAfter` is the number of seconds the server asked to wait (or null). */
final class RateLimitException extends TimbreException
{
    public function __construct(string $message, string $errorCode, ?int $status = null, ?string $requestId = null, array $details = [], array $headers = [], public readonly ?float $retryAfter = null)
    {
        parent::__construct($message, $errorCode, $status, $requestId, $details, $headers);
    }
}

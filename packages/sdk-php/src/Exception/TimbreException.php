<?php
declare(strict_types=1);

namespace Timbre\Exception;

/**
 * Base class of every error thrown for an API call. Branch on `errorCode` (the API's closed list) or the subclass.
 * `status` is the HTTP status (null when no answer came); `requestId` the `req_…` to quote to support.
 */
class TimbreException extends \RuntimeException
{
    /**
     * @param array<string, mixed> $details
     * @param array<string, string> $headers lower-case names
     */
    public function __construct(
        string $message,
        public readonly string $errorCode,
        public readonly ?int $status = null,
        public readonly ?string $requestId = null,
        public readonly array $details = [],
        public readonly array $headers = [],
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, $status ?? 0, $previous);
    }
}

<?php
declare(strict_types=1);

namespace Timbre\Exception;

/**
 * 400 / 422: fix the request. `errors` lists every problem found, each `['field' => …, 'reason' => …]`;
 * `errorCode` tells VALIDATION_ERROR from FOLIOS_EXHAUSTED, CERTIFICATE_REQUIRED, CAF_INVALID, …
 */
final class ValidationException extends TimbreException
{
    /** @var list<array<string, mixed>> */
    public readonly array $errors;

    public function __construct(string $message, string $errorCode, ?int $status = null, ?string $requestId = null, array $details = [], array $headers = [])
    {
        parent::__construct($message, $errorCode, $status, $requestId, $details, $headers);
        $errors = $details['errors'] ?? null;
        if (is_array($errors)) {
            $this->errors = array_values(array_filter($errors, 'is_array'));
        } elseif (is_string($details['field'] ?? null) && is_string($details['reason'] ?? null)) {
            $this->errors = [['field' => $details['field'], 'reason' => $details['reason']]];
        } else {
            $this->errors = [];
        }
    }
}

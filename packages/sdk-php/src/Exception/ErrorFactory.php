<?php
declare(strict_types=1);

namespace Timbre\Exception;

/** The one place that maps an HTTP answer to an exception class. */
final class ErrorFactory
{
    /** @param array<string, string> $headers lower-case names */
    public static function fromResponse(int $status, array $headers, mixed $body): TimbreException
    {
        $error = is_array($body) && is_array($body['error'] ?? null) ? $body['error'] : null;
        $code = is_string($error['code'] ?? null) ? $error['code'] : "HTTP_{$status}";
        $message = is_string($error['message'] ?? null) ? $error['message'] : "Request failed with HTTP {$status}";
        $details = is_array($error['details'] ?? null) ? $error['details'] : [];
        $requestId = is_string($error['request_id'] ?? null) ? $error['request_id'] : ($headers['request-id'] ?? null);
        $args = [$message, $code, $status, $requestId, $details, $headers];
        return match (true) {
            $status === 401 => new AuthenticationException(...$args),
            $status === 403 => new PermissionException(...$args),
            $status === 404 => new NotFoundException(...$args),
            $status === 409 => new ConflictException(...$args),
            $status === 400, $status === 422 => new ValidationException(...$args),
            $status === 429 => new RateLimitException(...$args, retryAfter: self::parseRetryAfter($headers['retry-after'] ?? null)
                ?? (is_numeric($details['retry_after'] ?? null) ? (float) $details['retry_after'] : null)),
            $status >= 500, $error === null => new ServerException(...$args),
            default => new ApiException(...$args),
        };
    }

    /** Seconds to wait from a `Retry-After` header (delta-seconds or an HTTP date). */
    public static function parseRetryAfter(?string $value): ?float
    {
        if ($value === null || trim($value) === '') {
            return null;
        }
        if (is_numeric(trim($value))) {
            return max(0.0, (float) trim($value));
        }
        $when = strtotime($value);
        return $when === false ? null : max(0.0, (float) ($when - time()));
    }
}

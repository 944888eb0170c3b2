<?php
declare(strict_types=1);

namespace Timbre;

use Timbre\Exception\WebhookVerificationException;

/**
 * Standard Webhooks verification (and signing, for receivers' own tests) of Timbre's deliveries: headers `webhook-id`,
 * `webhook-timestamp` (unix seconds), `webhook-signature` (`v1,<base64>`, several space-separated during a secret
 * rotation); HMAC-SHA256 over `"<id>.<timestamp>.<raw body>"` with the bytes of the `whsec_<base64>` secret.
 */
final class Webhooks
{
    /** Accepted distance between `webhook-timestamp` and now, in seconds. */
    public const DEFAULT_TOLERANCE = 300;

    /**
     * Checks a delivery and returns its event as an array. Pass the raw body exactly as received
     * (`file_get_contents('php://input')`). Header names are matched in any case; values may be strings or lists.
     * Throws WebhookVerificationException on a missing header, a timestamp more than `$tolerance` seconds away or no
     * matching signature. The comparison is timing-safe (`hash_equals`).
     *
     * @param array<string, string|list<string>> $headers
     * @return array<string, mixed>
     */
    public static function verify(string $payload, array $headers, string $secret, int $tolerance = self::DEFAULT_TOLERANCE, ?int $now = null): array
    {
        $id = self::header($headers, 'webhook-id');
        $timestamp = self::header($headers, 'webhook-timestamp');
        $signatures = self::header($headers, 'webhook-signature');
        if ($id === null || $id === '' || $timestamp === null || $timestamp === '' || $signatures === null || $signatures === '') {
            throw new WebhookVerificationException('Missing webhook-id, webhook-timestamp or webhook-signature header.');
        }
        if (!ctype_digit($timestamp)) {
            throw new WebhookVerificationException('Invalid webhook-timestamp header.');
        }
        $current = $now ?? time();
        if ($current - (int) $timestamp > $tolerance) {
            throw new WebhookVerificationException('Webhook timestamp is too old.');
        }
        if ((int) $timestamp - $current > $tolerance) {
            throw new WebhookVerificationException('Webhook timestamp is in the future.');
        }
        $expected = self::mac($secret, $id, $timestamp, $payload);
        $matched = false;
        foreach (explode(' ', $signatures) as $candidate) {
            [$version, $value] = array_pad(explode(',', $candidate, 2), 2, '');
            if ($version !== 'v1' || $value === '') {
                continue;
            }
            $given = base64_decode($value, true);
            // Every candidate is compared, so the time taken does not tell which one matched.
            $matched = ($given !== false && hash_equals($expected, $given)) || $matched;
        }
        if (!$matched) {
            throw new WebhookVerificationException('No matching webhook signature found.');
        }
        try {
            $event = json_decode($payload, true, 512, JSON_THROW_ON_ERROR);
        } catch (\JsonException $error) {
            throw new WebhookVerificationException('The webhook body is not JSON: ' . $error->getMessage(), 0, $error);
        }
        if (!is_array($event)) {
            throw new WebhookVerificationException('The webhook body is not a JSON object.');
        }
        return $event;
    }

    /** The `webhook-signature` value (`v1,<base64>`) of a body, for receivers' own tests. */
    public static function sign(string $id, int $timestamp, string $payload, string $secret): string
    {
        return 'v1,' . base64_encode(self::mac($secret, $id, (string) $timestamp, $payload));
    }

    /**
     * The three headers of a signed delivery, ready to send.
     *
     * @return array{webhook-id: string, webhook-timestamp: string, webhook-signature: string}
     */
    public static function headers(string $id, int $timestamp, string $payload, string $secret): array
    {
        return ['webhook-id' => $id, 'webhook-timestamp' => (string) $timestamp, 'webhook-signature' => self::sign($id, $timestamp, $payload, $secret)];
    }

    private static function mac(string $secret, string $id, string $timestamp, string $payload): string
    {
        $encoded = str_starts_with($secret, 'whsec_') ? substr($secret, 6) : $secret;
        $key = base64_decode($encoded, true);
        if ($key === false) {
            throw new WebhookVerificationException('The webhook secret is not valid base64 after `whsec_`.');
        }
        return hash_hmac('sha256', "{$id}.{$timestamp}.{$payload}", $key, true);
    }

    /** @param array<string, string|list<string>> $headers */
    private static function header(array $headers, string $name): ?string
    {
        foreach ($headers as $key => $value) {
            if (strtolower((string) $key) === $name) {
                return is_array($value) ? implode(' ', $value) : (string) $value;
            }
        }
        return null;
    }
}

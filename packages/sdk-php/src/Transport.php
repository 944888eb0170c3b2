<?php
declare(strict_types=1);

namespace Timbre;

use Timbre\Exception\ConnectionException;
use Timbre\Exception\ErrorFactory;
use Timbre\Exception\ServerException;
use Timbre\Exception\TimbreException;

/**
 * One API call over ext-curl, retried on transient failures (no answer, 429 honouring Retry-After, 5xx). Every POST
 * gets one generated Idempotency-Key that its retries reuse, so a retried emission never takes a second folio.
 *
 * @internal
 */
final class Transport
{
    /** Longest server-requested wait honoured before giving up on retrying (seconds). */
    private const MAX_RETRY_AFTER = 60.0;

    public ?Response $lastResponse = null;
    public readonly string $baseUrl;

    /** @param array<string, mixed> $options see {@see Timbre::__construct()} */
    public function __construct(private readonly array $options)
    {
        $this->baseUrl = self::normalizeBaseUrl((string) ($options['base_url'] ?? Timbre::DEFAULT_BASE_URL));
    }

    /** `http://host`, `http://host/`, `http://host/v1` and `http://host/v1/` all give `http://host/v1`. */
    public static function normalizeBaseUrl(string $baseUrl): string
    {
        $url = rtrim($baseUrl, '/');
        return str_ends_with($url, '/v1') ? $url : $url . '/v1';
    }

    /**
     * `content_type` sends `$body` (a string) as it is, with that type (an XML file, a multipart form); else an array
     * body goes as JSON.
     *
     * @param array<string, mixed> $query
     * @param array{idempotency_key?: string, raw?: bool, idempotent?: bool, content_type?: string} $call
     * @return array{0: mixed, 1: ?array<string, mixed>} data (a string when raw) and pagination
     */
    public function request(string $method, string $path, array $query = [], mixed $body = null, array $call = []): array
    {
        $raw = $call['raw'] ?? false;
        $url = $this->baseUrl . '/' . ltrim($path, '/') . self::queryString($query);
        $headers = $this->headers($raw);
        $payload = null;
        if (isset($call['content_type'])) {
            $payload = (string) $body;
            $headers[] = 'Content-Type: ' . $call['content_type'];
        } elseif ($body !== null) {
            $payload = $body === [] ? '{}' : json_encode($body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
            $headers[] = 'Content-Type: application/json';
        }
        $retryable = $method !== 'POST';
        if ($method === 'POST' && ($call['idempotent'] ?? true)) {
            $headers[] = 'Idempotency-Key: ' . ($call['idempotency_key'] ?? self::uuid4());
            $retryable = true;
        }
        $maxRetries = (int) ($this->options['max_retries'] ?? 2);

        for ($attempt = 0; ; $attempt++) {
            $canRetry = $retryable && $attempt < $maxRetries;
            try {
                [$status, $responseHeaders, $responseBody] = $this->send($method, $url, $headers, $payload);
            } catch (ConnectionException $error) {
                if (!$canRetry) {
                    throw $error;
                }
                usleep((int) ($this->backoff($attempt) * 1e6));
                continue;
            }
            if ($status >= 200 && $status < 300) {
                $this->lastResponse = new Response($status, $responseHeaders);
                return $raw ? [$responseBody, null] : self::unwrap($status, $responseHeaders, $responseBody);
            }
            $error = ErrorFactory::fromResponse($status, $responseHeaders, self::decode($responseBody));
            $wait = $canRetry ? $this->retryWait($status, $error, $responseHeaders, $attempt) : null;
            if ($wait === null) {
                throw $error;
            }
            usleep((int) ($wait * 1e6));
        }
    }

    /** @return list<string> */
    private function headers(bool $raw): array
    {
        $headers = ['Accept: ' . ($raw ? '*/*' : 'application/json'), 'User-Agent: timbre-php/' . Timbre::VERSION, 'Expect:'];
        if (!empty($this->options['api_key'])) {
            $headers[] = 'X-API-Key: ' . $this->options['api_key'];
        } elseif (!empty($this->options['access_token'])) {
            $headers[] = 'Authorization: Bearer ' . $this->options['access_token'];
        }
        if (!empty($this->options['business_id'])) {
            $headers[] = 'X-Business-Id: ' . $this->options['business_id'];
        }
        if (!empty($this->options['environment'])) {
            $headers[] = 'X-Environment: ' . $this->options['environment'];
        }
        return $headers;
    }

    /**
     * @param list<string> $headers
     * @return array{0: int, 1: array<string, string>, 2: string}
     */
    private function send(string $method, string $url, array $headers, ?string $payload): array
    {
        $responseHeaders = [];
        $handle = curl_init($url);
        $timeout = (float) ($this->options['timeout'] ?? 30.0);
        curl_setopt_array($handle, [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_HTTPHEADER => $headers,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_TIMEOUT_MS => (int) ($timeout * 1000),
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_HEADERFUNCTION => static function ($_, string $line) use (&$responseHeaders): int {
                $parts = explode(':', $line, 2);
                if (count($parts) === 2) {
                    $responseHeaders[strtolower(trim($parts[0]))] = trim($parts[1]);
                }
                return strlen($line);
            },
        ]);
        if ($payload !== null) {
            curl_setopt($handle, CURLOPT_POSTFIELDS, $payload);
        }
        $body = curl_exec($handle);
        $errno = curl_errno($handle);
        $status = (int) curl_getinfo($handle, CURLINFO_RESPONSE_CODE);
        $reason = curl_error($handle);
        curl_close($handle);
        if ($errno !== 0 || !is_string($body)) {
            if ($errno === CURLE_OPERATION_TIMEDOUT) {
                throw new ConnectionException("The request timed out after {$timeout} s.", 'TIMEOUT');
            }
            throw new ConnectionException("Could not reach the Timbre API: {$reason}", 'CONNECTION_ERROR');
        }
        return [$status, $responseHeaders, $body];
    }

    /** @param array<string, string> $headers */
    private function retryWait(int $status, TimbreException $error, array $headers, int $attempt): ?float
    {
        $transient = $status === 429 || $status >= 500 || ($status === 409 && $error->errorCode === 'IDEMPOTENCY_IN_PROGRESS');
        if (!$transient) {
            return null;
        }
        $retryAfter = ErrorFactory::parseRetryAfter($headers['retry-after'] ?? null);
        if ($retryAfter !== null) {
            return $retryAfter > self::MAX_RETRY_AFTER ? null : $retryAfter;
        }
        return $this->backoff($attempt);
    }

    /** Exponential back-off with equal jitter (half fixed, half random), in seconds. */
    private function backoff(int $attempt): float
    {
        $initial = (float) ($this->options['initial_retry_delay'] ?? 0.5);
        $max = (float) ($this->options['max_retry_delay'] ?? 8.0);
        $exponential = min($max, $initial * 2 ** $attempt);
        return $exponential / 2 + (mt_rand() / mt_getrandmax()) * $exponential / 2;
    }

    /** @param array<string, mixed> $query */
    private static function queryString(array $query): string
    {
        $pairs = [];
        foreach ($query as $key => $value) {
            if ($value === null) {
                continue;
            }
            $pairs[$key] = is_bool($value) ? ($value ? 'true' : 'false') : (string) $value;
        }
        return $pairs === [] ? '' : '?' . http_build_query($pairs, '', '&', PHP_QUERY_RFC3986);
    }

    private static function decode(string $body): mixed
    {
        if ($body === '') {
            return null;
        }
        try {
            return json_decode($body, true, 512, JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            return null;
        }
    }

    /**
     * @param array<string, string> $headers
     * @return array{0: mixed, 1: ?array<string, mixed>}
     */
    private static function unwrap(int $status, array $headers, string $body): array
    {
        $parsed = self::decode($body);
        if (!is_array($parsed) || !array_key_exists('data', $parsed)) {
            throw new ServerException("Expected a Timbre API JSON envelope, got HTTP {$status} with another body.", 'INVALID_RESPONSE', $status, $headers['request-id'] ?? null);
        }
        return [$parsed['data'], is_array($parsed['pagination'] ?? null) ? $parsed['pagination'] : null];
    }

    private static function uuid4(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }
}

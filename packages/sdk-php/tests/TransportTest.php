<?php
declare(strict_types=1);

namespace Timbre\Tests;

use PHPUnit\Framework\TestCase;
use Timbre\Exception\RateLimitException;
use Timbre\Exception\ServerException;
use Timbre\Tests\Support\Helper;
use Timbre\Timbre;
use Timbre\Transport;

/**
 * Retries, Retry-After and idempotency keys against a scripted HTTP server on loopback (the real server cannot be made
 * to answer 429 or 503 on demand).
 */
final class TransportTest extends TestCase
{
    private ?Helper $server = null;
    private string $log = '';

    protected function tearDown(): void
    {
        $this->server?->stop();
        if ($this->log !== '' && is_file($this->log)) {
            unlink($this->log);
        }
    }

    /** @return list<array<string, string>> the headers of every request the scripted server saw */
    private function seen(): array
    {
        return array_map(fn (string $l) => json_decode($l, true), file($this->log, FILE_IGNORE_NEW_LINES));
    }

    private function scripted(array $answers, array $options = []): Timbre
    {
        $answersFile = tempnam(sys_get_temp_dir(), 'timbre-answers-');
        file_put_contents($answersFile, json_encode($answers));
        $this->log = tempnam(sys_get_temp_dir(), 'timbre-seen-');
        $this->server = Helper::php('scripted-server.php', $answersFile, $this->log);
        return new Timbre($options + ['api_key' => 'sk_test_k', 'base_url' => "http://127.0.0.1:{$this->server->firstLine}", 'initial_retry_delay' => 0.01]);
    }

    private static function failure(string $code, array $details = []): array
    {
        return ['success' => false, 'error' => ['code' => $code, 'message' => $code, 'details' => (object) $details, 'request_id' => 'req_x']];
    }

    public function test429And503AreRetriedWithOneIdempotencyKey(): void
    {
        $client = $this->scripted([
            [429, ['retry-after' => '0'], self::failure('RATE_LIMITED')],
            [503, [], self::failure('UNAVAILABLE')],
            [201, [], ['success' => true, 'data' => ['id' => 'dte_1']]],
        ]);

        self::assertSame(['id' => 'dte_1'], $client->dte->emit(['tipo' => 33]));

        $keys = array_column($this->seen(), 'idempotency-key');
        self::assertCount(3, $keys);
        self::assertNotEmpty($keys[0]);
        self::assertCount(1, array_unique($keys));
        self::assertSame(['sk_test_k'], array_values(array_unique(array_column($this->seen(), 'x-api-key'))));
    }

    public function testA429WithoutRetriesLeftIsARateLimitExceptionWithRetryAfter(): void
    {
        $client = $this->scripted([[429, ['retry-after' => '7'], self::failure('RATE_LIMITED', ['retry_after' => 7])]], ['max_retries' => 0]);
        try {
            $client->dte->emit(['tipo' => 33]);
            self::fail('expected a RateLimitException');
        } catch (RateLimitException $error) {
            self::assertSame([429, 'RATE_LIMITED', 7.0, 'req_x'], [$error->status, $error->errorCode, $error->retryAfter, $error->requestId]);
        }
    }

    public function testAWaitLongerThanAMinuteIsNotSleptThrough(): void
    {
        $client = $this->scripted([[429, ['retry-after' => '120'], self::failure('RATE_LIMITED')]], ['max_retries' => 3]);
        try {
            $client->dte->list()->firstPage();
            self::fail('expected a RateLimitException');
        } catch (RateLimitException $error) {
            self::assertSame(120.0, $error->retryAfter);
            self::assertCount(1, $this->seen());
        }
    }

    public function testA5xxAfterTheLastRetryIsAServerException(): void
    {
        $client = $this->scripted([[500, [], self::failure('INTERNAL_ERROR')], [500, [], self::failure('INTERNAL_ERROR')]], ['max_retries' => 1]);
        try {
            $client->dte->retrieve('dte_1');
            self::fail('expected a ServerException');
        } catch (ServerException $error) {
            self::assertSame([500, 'INTERNAL_ERROR'], [$error->status, $error->errorCode]);
            self::assertCount(2, $this->seen());
        }
    }

    public function testAGivenIdempotencyKeyIsSentAsIs(): void
    {
        $client = $this->scripted([[201, [], ['success' => true, 'data' => ['id' => 'dte_1']]]]);
        $client->dte->emit(['tipo' => 33], ['idempotency_key' => 'venta-42']);
        self::assertSame('venta-42', $this->seen()[0]['idempotency-key']);
    }

    public function testTheBaseUrlMayComeWithOrWithoutV1(): void
    {
        foreach (['http://h:1', 'http://h:1/', 'http://h:1/v1', 'http://h:1/v1/'] as $given) {
            self::assertSame('http://h:1/v1', Transport::normalizeBaseUrl($given));
        }
    }
}

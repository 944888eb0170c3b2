<?php
declare(strict_types=1);

namespace Timbre\Tests;

use PHPUnit\Framework\TestCase;
use Timbre\Exception\ConnectionException;
use Timbre\Exception\NotFoundException;
use Timbre\Exception\ValidationException;
use Timbre\Exception\WebhookVerificationException;
use Timbre\Tests\Support\Fixtures;
use Timbre\Tests\Support\Helper;
use Timbre\Tests\Support\SandboxServer;
use Timbre\Timbre;
use Timbre\Webhooks;

/**
 * The scenario every SDK runs against the real server (issue 42): emit a factura, iterate a list across pages, a 404,
 * a validation error with its field errors, a retry after a dropped connection that emits once, and a real webhook
 * delivery verified (and a tampered one refused).
 */
final class ScenarioTest extends TestCase
{
    private static function client(array $options = []): Timbre
    {
        $server = SandboxServer::get();
        return new Timbre($options + ['api_key' => $server->apiKey, 'base_url' => $server->baseUrl, 'initial_retry_delay' => 0.05]);
    }

    public function testEmitsAFacturaAndDownloadsItsPdfAndXml(): void
    {
        $client = self::client();

        $dte = $client->dte->emit(Fixtures::factura(precio: 10000));

        self::assertStringStartsWith('dte_', $dte['id']);
        self::assertSame(33, $dte['tipo']);
        self::assertIsInt($dte['folio']);
        self::assertSame([20000, 3800, 23800], [$dte['monto_neto'], $dte['monto_iva'], $dte['monto_total']]);
        self::assertContains($dte['estado'], ['ENVIADO', 'PENDIENTE', 'ACEPTADO']);
        self::assertContains($client->lastResponse()?->status, [201, 202]);
        self::assertStringStartsWith('req_', (string) $client->lastResponse()?->requestId);
        self::assertSame($dte['folio'], $client->dte->retrieve($dte['id'])['folio']);
        self::assertSame('%PDF-', substr($client->dte->pdf($dte['id']), 0, 5));
        self::assertStringContainsString("<Folio>{$dte['folio']}</Folio>", $client->dte->xml($dte['id']));
    }

    public function testListIteratesAcrossPages(): void
    {
        $client = self::client();
        $rut = Fixtures::uniqueRut();
        $emitted = $client->dte->batch(array_map(fn (int $n) => Fixtures::factura($rut, 1000 + $n), range(1, 5)));
        self::assertSame([true, true, true, true, true], array_column($emitted['results'], 'success'));

        $sizes = [];
        $numbers = [];
        foreach ($client->dte->list(['receptor_rut' => $rut, 'limit' => 2])->pages() as $page) {
            $sizes[] = count($page->data);
            $numbers[] = $page->pagination['page'];
        }
        $ids = [];
        foreach ($client->dte->list(['receptor_rut' => $rut, 'limit' => 2]) as $dte) {
            $ids[] = $dte['id'];
        }

        self::assertSame([2, 2, 1], $sizes);
        self::assertSame([1, 2, 3], $numbers);
        $expected = array_map(fn (array $r) => $r['data']['id'], $emitted['results']);
        sort($expected);
        sort($ids);
        self::assertSame($expected, $ids);
        self::assertSame(5, $client->dte->list(['receptor_rut' => $rut, 'limit' => 2])->firstPage()->pagination['total']);
    }

    public function testAnUnknownDocumentIsNotFoundWithStatusAndCode(): void
    {
        try {
            self::client()->dte->retrieve('dte_01aaaaaaaaaaaaaaaaaaaaaaaa');
            self::fail('expected a NotFoundException');
        } catch (NotFoundException $error) {
            self::assertSame(404, $error->status);
            self::assertSame('NOT_FOUND', $error->errorCode);
            self::assertStringStartsWith('req_', (string) $error->requestId);
        }
    }

    public function testAValidationErrorCarriesEveryFieldError(): void
    {
        $body = Fixtures::factura();
        $body['receptor']['rut'] = '76192083-0';
        $body['items'][0]['precio'] = -1;
        unset($body['receptor']['comuna']);
        try {
            self::client()->dte->emit($body);
            self::fail('expected a ValidationException');
        } catch (ValidationException $error) {
            self::assertSame([422, 'VALIDATION_ERROR'], [$error->status, $error->errorCode]);
            $reasons = array_map(fn (array $e) => "{$e['field']} {$e['reason']}", $error->errors);
            self::assertContains('receptor.rut invalid_rut', $reasons);
            self::assertContains('receptor.comuna required', $reasons);
            self::assertContains('items[0].precio minimum', $reasons);
        }
    }

    public function testARetryAfterADroppedConnectionDoesNotEmitTwice(): void
    {
        $server = SandboxServer::get();
        $log = tempnam(sys_get_temp_dir(), 'timbre-proxy-');
        $proxy = Helper::php('dropping-proxy.php', (string) parse_url($server->baseUrl, PHP_URL_HOST) . ':' . parse_url($server->baseUrl, PHP_URL_PORT), '1', $log);
        try {
            $client = self::client(['base_url' => "http://127.0.0.1:{$proxy->firstLine}", 'max_retries' => 2]);
            $rut = Fixtures::uniqueRut();

            $dte = $client->dte->emit(Fixtures::factura($rut));

            $keys = file($log, FILE_IGNORE_NEW_LINES);
            self::assertCount(2, $keys);
            self::assertNotSame('-', $keys[0]);
            self::assertSame($keys[0], $keys[1]);
            self::assertTrue($client->lastResponse()?->idempotentReplayed);
            self::assertSame([$dte['id']], array_column(self::client()->dte->list(['receptor_rut' => $rut])->toArray(), 'id'));
        } finally {
            $proxy->stop();
            unlink($log);
        }
    }

    public function testWithoutRetriesADroppedConnectionIsAConnectionException(): void
    {
        $server = SandboxServer::get();
        $log = tempnam(sys_get_temp_dir(), 'timbre-proxy-');
        $proxy = Helper::php('dropping-proxy.php', parse_url($server->baseUrl, PHP_URL_HOST) . ':' . parse_url($server->baseUrl, PHP_URL_PORT), '1', $log);
        try {
            self::client(['base_url' => "http://127.0.0.1:{$proxy->firstLine}/v1/", 'max_retries' => 0])->dte->retrieve('dte_01aaaaaaaaaaaaaaaaaaaaaaaa');
            self::fail('expected a ConnectionException');
        } catch (ConnectionException $error) {
            self::assertSame('CONNECTION_ERROR', $error->errorCode);
            self::assertNull($error->status);
        } finally {
            $proxy->stop();
            unlink($log);
        }
    }

    public function testARealWebhookDeliveryVerifiesAndATamperedOneIsRefused(): void
    {
        $server = SandboxServer::get();
        $client = self::client();
        $log = tempnam(sys_get_temp_dir(), 'timbre-hooks-');
        $listener = Helper::php('webhook-listener.php', $log);
        try {
            $business = $client->businesses->update($server->businessId, ['webhook_url' => "http://127.0.0.1:{$listener->firstLine}/hooks/timbre"]);
            $secret = $business['webhook_secret'] ?? $client->businesses->rotateWebhookSecret($server->businessId)['webhook_secret'];
            self::assertStringStartsWith('whsec_', $secret);
            $client->dte->emit(Fixtures::factura(Fixtures::uniqueRut()));

            $deadline = time() + 90;
            while (trim((string) file_get_contents($log)) === '' && time() < $deadline) {
                usleep(200_000);
            }
            $lines = file($log, FILE_IGNORE_NEW_LINES);
            self::assertNotEmpty($lines, 'no webhook delivery within 90 s');
            $delivery = json_decode($lines[0], true);
            $body = base64_decode($delivery['body']);
            $headers = $delivery['headers'];

            $event = Webhooks::verify($body, $headers, $secret);
            self::assertSame($headers['webhook-id'], $event['id']);
            self::assertStringStartsWith('dte.', $event['event']);
            self::assertSame($server->businessId, $event['business_id']);

            $tampered = str_replace('"test"', '"live"', $body);
            self::assertNotSame($body, $tampered);
            try {
                Webhooks::verify($tampered, $headers, $secret);
                self::fail('a tampered delivery verified');
            } catch (WebhookVerificationException $error) {
                self::assertStringContainsString('No matching', $error->getMessage());
            }
            $this->expectException(WebhookVerificationException::class);
            $this->expectExceptionMessage('too old');
            Webhooks::verify($body, $headers, $secret, now: (int) $headers['webhook-timestamp'] + 301);
        } finally {
            $listener->stop();
            unlink($log);
        }
    }
}

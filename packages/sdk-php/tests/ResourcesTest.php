<?php
declare(strict_types=1);

namespace Timbre\Tests;

use PHPUnit\Framework\TestCase;
use Timbre\Tests\Support\Fixtures;
use Timbre\Tests\Support\Helper;
use Timbre\Tests\Support\SandboxServer;
use Timbre\Timbre;

/** The other resources, each called once against the real server: the paths, verbs and bodies are right. */
final class ResourcesTest extends TestCase
{
    private static function client(): Timbre
    {
        $server = SandboxServer::get();
        return new Timbre(['api_key' => $server->apiKey, 'base_url' => $server->baseUrl]);
    }

    public function testBusinessesNumerationsTokensRutHealthAndMe(): void
    {
        $client = self::client();
        $businessId = SandboxServer::get()->businessId;

        self::assertSame([$businessId], array_column($client->businesses->list()->toArray(), 'id'));
        self::assertSame('76192083-9', $client->businesses->retrieve($businessId)['rut']);
        $numerations = $client->numerations->list($businessId, ['tipo' => 33])->toArray();
        self::assertNotEmpty($numerations);
        self::assertSame([33], array_values(array_unique(array_column($numerations, 'tipo'))));
        self::assertSame($numerations[0]['id'], $client->numerations->retrieve($numerations[0]['id'])['id']);
        $issued = $client->sandbox->numerations->create(33, 5);
        self::assertSame([33, 4], [$issued['tipo'], $issued['hasta'] - $issued['desde']]);
        self::assertContains($businessId, array_column($client->tokens->list()->toArray(), 'business_id'));
        self::assertTrue($client->rut->validate('76.192.083-9')['valid']);
        self::assertSame('ok', $client->health()['status']);
        self::assertSame('api_key', $client->auth->me()['auth']['type']);
    }

    public function testPreviewStatusAnularEventsAndResend(): void
    {
        $client = self::client();
        self::assertSame(2380, $client->dte->preview(Fixtures::factura(precio: 1000))['totals']['monto_total']);
        self::assertSame('%PDF-', substr($client->dte->previewPdf(Fixtures::factura()), 0, 5));
        $dte = $client->dte->emit(Fixtures::factura());
        self::assertSame('ACEPTADO', $client->dte->waitForFinalStatus($dte['id'], 0.2, 60)['estado']);

        $note = $client->dte->anular($dte['id']);

        self::assertSame([61, $dte['monto_total']], [$note['tipo'], $note['monto_total']]);
        self::assertSame($note['id'], $client->dte->status($note['id'])['id']);
        $events = $client->events->list(['event' => 'dte.status_changed', 'limit' => 5])->firstPage()->data;
        self::assertNotEmpty($events);
        self::assertIsArray($events[0]['deliveries']);
        // A resend needs a webhook URL: a listener of this test's own.
        $log = tempnam(sys_get_temp_dir(), 'timbre-hooks-');
        $listener = Helper::php('webhook-listener.php', $log);
        try {
            $client->businesses->update(SandboxServer::get()->businessId, ['webhook_url' => "http://127.0.0.1:{$listener->firstLine}/hooks"]);
            $resent = $client->events->resend($events[0]['id']);
            self::assertSame($events[0]['id'], $resent['id']);
            self::assertIsInt($resent['attempt']);
        } finally {
            $listener->stop();
            unlink($log);
        }
    }
}

<?php
declare(strict_types=1);

namespace Timbre\Tests;

use PHPUnit\Framework\TestCase;
use Timbre\Exception\ConflictException;
use Timbre\Exception\ValidationException;
use Timbre\Tests\Support\Fixtures;
use Timbre\Tests\Support\SandboxServer;
use Timbre\Timbre;

/**
 * The exchange against the real server: the supplier issues facturas to the tenant, the SII accepts them and the
 * supplier's delivery mails the tenant the EnvioDTE (kept by a real SMTP server on loopback); the tenant imports
 * that file's bytes, lists, downloads, accepts and claims; the supplier sends one again with `dte->enviar()`.
 */
final class ExchangeTest extends TestCase
{
    private static function buyer(): Timbre
    {
        $server = SandboxServer::get();
        return new Timbre(['api_key' => $server->apiKey, 'base_url' => $server->baseUrl]);
    }

    private static function supplier(): Timbre
    {
        $server = SandboxServer::get();
        return new Timbre(['api_key' => $server->supplierApiKey, 'base_url' => $server->baseUrl]);
    }

    /** The EnvioDTE files mailed to the tenant holding `$folio`. @return list<string> */
    private static function mailedEnvelopes(int $folio): array
    {
        $server = SandboxServer::get();
        $files = glob($server->mailDir . '/' . $server->intercambioEmail . '-*.xml') ?: [];
        $bytes = array_map(static fn (string $file): string => (string) file_get_contents($file), $files);
        return array_values(array_filter($bytes, static fn (string $xml): bool => str_contains($xml, "<Folio>{$folio}</Folio>")));
    }

    /**
     * The supplier issues a factura to the tenant; once accepted, the envelope it mailed (bytes as received).
     *
     * @return array{0: array<string, mixed>, 1: string}
     */
    private static function envelopeFromSupplier(): array
    {
        $supplier = self::supplier();
        $factura = Fixtures::factura('76192083-9');
        // the sandbox's list of issuers names the first-run business of that RUT: the tenant gets it as receptor.email
        $factura['receptor']['email'] = SandboxServer::get()->intercambioEmail;
        $dte = $supplier->dte->emit($factura);
        self::assertSame('ACEPTADO', $supplier->dte->waitForFinalStatus($dte['id'], 0.2, 60)['estado']);
        $deadline = microtime(true) + 30;
        while (self::mailedEnvelopes($dte['folio']) === [] && microtime(true) < $deadline) {
            usleep(100_000);
        }
        $envelopes = self::mailedEnvelopes($dte['folio']);
        self::assertNotEmpty($envelopes, "no EnvioDTE with folio {$dte['folio']} was mailed to the tenant");
        return [$dte, $envelopes[0]];
    }

    public function testImportsTheMailedEnvelopeListsDownloadsAndAcceptsOnce(): void
    {
        $client = self::buyer();
        [$dte, $envelope] = self::envelopeFromSupplier();
        // ISO-8859-1 bytes ("Consultoría"): sent as they are, never through JSON
        self::assertFalse(mb_check_encoding($envelope, 'UTF-8'));

        $results = $client->received->import($envelope)['results'];

        self::assertCount(1, $results);
        self::assertTrue($results[0]['success']);
        $doc = $results[0]['data'];
        self::assertStringStartsWith('rcv_', $doc['id']);
        self::assertSame([SandboxServer::get()->supplierRut, 33, $dte['folio'], 'SIN_RESPUESTA'], [$doc['emisor']['rut'], $doc['tipo'], $doc['folio'], $doc['estado']]);
        self::assertSame(['ok', 'ok', 'ok', 'ok'], [$doc['verificacion']['firma'], $doc['verificacion']['timbre'], $doc['verificacion']['caf'], $doc['verificacion']['receptor']]);
        self::assertNotNull($doc['plazo_hasta']);
        self::assertSame(201, $client->lastResponse()?->status);
        // the multipart form, with reply_to: the same document, a duplicate
        $again = $client->received->import($envelope, 'dte@proveedor.example')['results'][0];
        self::assertSame([true, true, $doc['id']], [$again['success'], $again['duplicate'] ?? false, $again['data']['id']]);

        $fromSupplier = array_column($client->received->list(['emisor_rut' => SandboxServer::get()->supplierRut])->toArray(), 'id');
        self::assertContains($doc['id'], $fromSupplier);
        self::assertSame([], $client->received->list(['tipo' => 34])->toArray());
        self::assertSame($doc['plazo_hasta'], $client->received->retrieve($doc['id'])['plazo_hasta']);
        self::assertStringContainsString("<Folio>{$dte['folio']}</Folio>", $client->received->xml($doc['id']));
        self::assertSame('%PDF-', substr($client->received->pdf($doc['id'], ['formato' => 'termica']), 0, 5));

        $accepted = $client->received->accept($doc['id'], ['recibo_mercaderias' => true, 'recinto' => 'Bodega central']);

        self::assertSame('ACEPTADO', $accepted['estado']);
        self::assertNotEmpty($accepted['eventos']);
        try {
            $client->received->accept($doc['id']);
            self::fail('a second acceptance must be refused');
        } catch (ConflictException $error) {
            self::assertSame([409, 'CONFLICT'], [$error->status, $error->errorCode]);
        }
    }

    public function testClaimsPagesABadEnvelopeIsRefusedAndTheSupplierSendsAgain(): void
    {
        $client = self::buyer();
        [$dte, $envelope] = self::envelopeFromSupplier();
        $doc = $client->received->import($envelope)['results'][0]['data'];

        $claimed = $client->received->claim($doc['id'], ['accion' => 'RFT', 'motivo' => 'No llegó la mercadería']);

        self::assertSame('RECLAMADO', $claimed['estado']);
        // one item a page: the iterator walks every page
        $total = $client->received->list(['limit' => 1])->firstPage()->pagination['total'];
        self::assertGreaterThanOrEqual(2, $total);
        self::assertCount($total, $client->received->list(['limit' => 1])->toArray());
        try {
            $client->received->import('<EnvioDTE>sin firma</EnvioDTE>');
            self::fail('an unsigned envelope must be refused');
        } catch (ValidationException $error) {
            self::assertSame([422, 'ENVELOPE_INVALID'], [$error->status, $error->errorCode]);
        }
        self::assertSame($total, $client->received->list(['limit' => 1])->firstPage()->pagination['total']);
        self::assertIsArray($client->received->inbox()->toArray());

        $before = count(self::mailedEnvelopes($dte['folio']));
        $supplier = self::supplier();
        $delivery = $supplier->dte->enviar($dte['id'], ['email' => SandboxServer::get()->intercambioEmail]);

        self::assertSame(202, $supplier->lastResponse()?->status);
        self::assertSame(['PENDIENTE', [SandboxServer::get()->intercambioEmail]], [$delivery['estado'], $delivery['destinatarios']]);
        $deadline = microtime(true) + 30;
        while (count(self::mailedEnvelopes($dte['folio'])) <= $before && microtime(true) < $deadline) {
            usleep(100_000);
        }
        self::assertGreaterThan($before, count(self::mailedEnvelopes($dte['folio'])));
    }
}

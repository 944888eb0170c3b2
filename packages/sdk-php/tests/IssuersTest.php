<?php
declare(strict_types=1);

namespace Timbre\Tests;

use PHPUnit\Framework\TestCase;
use Timbre\Exception\NotFoundException;
use Timbre\Exception\ValidationException;
use Timbre\Tests\Support\SandboxServer;
use Timbre\Timbre;

/** `$client->issuers->retrieve()` against the real server, whose sandbox list holds its own businesses. */
final class IssuersTest extends TestCase
{
    private static function client(): Timbre
    {
        $server = SandboxServer::get();
        return new Timbre(['api_key' => $server->apiKey, 'base_url' => $server->baseUrl]);
    }

    public function testASandboxBusinessIsListedWithItsIntercambioAddress(): void
    {
        $server = SandboxServer::get();
        $supplier = new Timbre(['api_key' => $server->supplierApiKey, 'base_url' => $server->baseUrl]);
        $business = $supplier->businesses->retrieve($supplier->businesses->list()->toArray()[0]['id']);

        // The tenant's key sees the sandbox's list, the supplier in it; any spelling of the RUT finds it.
        $issuer = self::client()->issuers->retrieve('77.777.777-7');

        self::assertSame([$server->supplierRut, $business['razon_social'], $business['intercambio']['email']], [$issuer['rut'], $issuer['razon_social'], $issuer['correo_intercambio']]);
        self::assertMatchesRegularExpression('/@/', (string) $issuer['correo_intercambio']);
        self::assertTrue($issuer['resolucion'] === null || (is_int($issuer['resolucion']['numero']) && preg_match('/^\d{4}-\d{2}-\d{2}$/', $issuer['resolucion']['fecha']) === 1));
    }

    public function testAnUnlistedRutIsNotFound(): void
    {
        try {
            self::client()->issuers->retrieve('12345678-5');
            self::fail('no exception');
        } catch (NotFoundException $e) {
            self::assertSame([404, 'NOT_FOUND'], [$e->status, $e->errorCode]);
        }
    }

    public function testAMalformedRutIsAValidationError(): void
    {
        try {
            self::client()->issuers->retrieve('76192083-8');
            self::fail('no exception');
        } catch (ValidationException $e) {
            self::assertSame([422, 'VALIDATION_ERROR'], [$e->status, $e->errorCode]);
            self::assertSame('invalid_rut', $e->errors[0]['reason']);
        }
    }
}

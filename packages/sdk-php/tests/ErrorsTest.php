<?php
declare(strict_types=1);

namespace Timbre\Tests;

use PHPUnit\Framework\TestCase;
use Timbre\Exception\AuthenticationException;
use Timbre\Exception\ConflictException;
use Timbre\Exception\PermissionException;
use Timbre\Tests\Support\Fixtures;
use Timbre\Tests\Support\SandboxServer;
use Timbre\Timbre;

/** Each refusal of the real server becomes the exception class of what the caller does next. */
final class ErrorsTest extends TestCase
{
    public function testAnUnknownKeyIsAnAuthenticationException(): void
    {
        $client = new Timbre(['api_key' => 'sk_test_' . str_repeat('x', 32), 'base_url' => SandboxServer::get()->baseUrl]);
        try {
            $client->dte->list()->firstPage();
            self::fail('expected an AuthenticationException');
        } catch (AuthenticationException $error) {
            self::assertSame([401, 'UNAUTHORIZED'], [$error->status, $error->errorCode]);
            self::assertStringStartsWith('req_', (string) $error->requestId);
        }
    }

    public function testAKeyWithoutThePermissionIsAPermissionException(): void
    {
        $server = SandboxServer::get();
        $client = new Timbre(['api_key' => $server->apiKey, 'base_url' => $server->baseUrl]);
        $created = $client->tokens->create(['name' => 'solo lectura', 'permissions' => ['dte:read']]);
        try {
            (new Timbre(['api_key' => $created['key'], 'base_url' => $server->baseUrl]))->dte->emit(Fixtures::factura());
            self::fail('expected a PermissionException');
        } catch (PermissionException $error) {
            self::assertSame([403, 'FORBIDDEN'], [$error->status, $error->errorCode]);
            self::assertSame('dte:write', $error->requiredPermission());
        } finally {
            self::assertTrue($client->tokens->revoke($created['id'])['revoked']);
        }
    }

    public function testATakenEmailIsAConflict(): void
    {
        $anonymous = new Timbre(['base_url' => SandboxServer::get()->baseUrl]);
        $email = 'ana-' . bin2hex(random_bytes(4)) . '@example.com';
        $anonymous->auth->register($email, 'una clave bien larga', 'Ana');
        $this->expectException(ConflictException::class);
        $this->expectExceptionCode(409);
        $anonymous->auth->register($email, 'una clave bien larga', 'Ana');
    }

    public function testUnknownOptionsAreRefused(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        new Timbre(['apiKey' => 'sk_test_x']);
    }
}

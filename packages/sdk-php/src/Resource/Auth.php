<?php
declare(strict_types=1);

namespace Timbre\Resource;

/** Users and sessions: `/v1/auth` (these POSTs carry no idempotency key: no credential scopes them). */
final class Auth extends AbstractResource
{
    public function register(string $email, string $password, string $nombre): array
    {
        return $this->call('POST', 'auth/register', body: ['email' => $email, 'password' => $password, 'nombre' => $nombre], call: ['idempotent' => false]);
    }

    public function login(string $email, string $password): array
    {
        return $this->call('POST', 'auth/login', body: ['email' => $email, 'password' => $password], call: ['idempotent' => false]);
    }

    public function refresh(string $refreshToken): array
    {
        return $this->call('POST', 'auth/refresh', body: ['refresh_token' => $refreshToken], call: ['idempotent' => false]);
    }

    public function me(): array
    {
        return $this->call('GET', 'auth/me');
    }
}

<?php
declare(strict_types=1);

namespace Timbre\Resource;

/** `POST /v1/sandbox/numerations`: CAFs issued by the sandbox SII (a server in `SII_MODE=sandbox` only). */
final class SandboxNumerations extends AbstractResource
{
    public function create(int $tipo, int $cantidad, array $options = []): array
    {
        return $this->call('POST', 'sandbox/numerations', body: ['tipo' => $tipo, 'cantidad' => $cantidad], call: self::opts($options));
    }
}

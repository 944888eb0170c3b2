<?php
declare(strict_types=1);

namespace Timbre\Resource;

final class Rut extends AbstractResource
{
    /** `POST /rut/validate`: `['valid', 'rut', 'formateado', 'dv_esperado']`. */
    public function validate(string $rut): array
    {
        return $this->call('POST', 'rut/validate', body: ['rut' => $rut]);
    }
}

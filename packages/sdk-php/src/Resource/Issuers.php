<?php
declare(strict_types=1);

namespace Timbre\Resource;

/**
 * The SII's list of authorised electronic issuers (API §14): `/v1/issuers`. In sandbox mode the list holds the
 * sandbox's businesses with their Timbre intercambio addresses.
 *
 * @phpstan-type Issuer array{
 *     rut: string,
 *     razon_social: string,
 *     resolucion: ?array{numero: int, fecha: string},
 *     correo_intercambio: ?string
 * }
 */
final class Issuers extends AbstractResource
{
    /**
     * `GET /issuers/{rut}`: one issuer of the list for the key's environment; `resolucion['numero']` 0 means
     * authorised in certification only. A RUT that is not listed throws a NotFoundException; a malformed one (or a
     * wrong check digit) a ValidationException with reason `invalid_rut`.
     *
     *     $correo = $client->issuers->retrieve('76.192.083-9')['correo_intercambio'];
     *
     * @return Issuer
     */
    public function retrieve(string $rut): array
    {
        return $this->call('GET', 'issuers/' . self::seg($rut));
    }
}

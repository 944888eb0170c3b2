<?php
declare(strict_types=1);

namespace Timbre\Tests\Support;

final class Fixtures
{
    /** A valid RUT for `$number` (módulo 11 check digit). */
    public static function rut(int $number): string
    {
        $total = 0;
        $factor = 2;
        foreach (array_reverse(str_split((string) $number)) as $digit) {
            $total += (int) $digit * $factor;
            $factor = $factor === 7 ? 2 : $factor + 1;
        }
        $dv = 11 - $total % 11;
        return $number . '-' . ($dv === 11 ? '0' : ($dv === 10 ? 'K' : (string) $dv));
    }

    public static function uniqueRut(): string
    {
        return self::rut(random_int(10_000_000, 29_999_999));
    }

    /** @return array<string, mixed> */
    public static function factura(string $receptorRut = '76192083-9', int $precio = 10000): array
    {
        return [
            'tipo' => 33,
            'receptor' => [
                'rut' => $receptorRut,
                'razon_social' => 'Cliente de Prueba SpA',
                'giro' => 'Comercio',
                'direccion' => 'Av. Apoquindo 4500',
                'comuna' => 'Las Condes',
            ],
            'items' => [['nombre' => 'Consultoría', 'cantidad' => 2, 'precio' => $precio]],
            'forma_pago' => 1,
        ];
    }
}

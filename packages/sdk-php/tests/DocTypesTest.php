<?php
declare(strict_types=1);

namespace Timbre\Tests;

use PHPUnit\Framework\TestCase;
use Timbre\Resource\Dte;
use Timbre\Tests\Support\SandboxServer;
use Timbre\Timbre;

/**
 * The 46, 43 and export emission bodies: the PHPDoc array shapes of `Dte` name exactly the fields the server's
 * OpenAPI document gives each tipo's request, and a body of each shape is emitted by the real server.
 */
final class DocTypesTest extends TestCase
{
    private static function client(): Timbre
    {
        $server = SandboxServer::get();
        return new Timbre(['api_key' => $server->apiKey, 'base_url' => $server->baseUrl]);
    }

    /** `@phpstan-type Name array{…}` of Dte's docblock → top-level keys (without `?`). */
    private static function shapeKeys(string $name): array
    {
        $doc = (string) (new \ReflectionClass(Dte::class))->getDocComment();
        self::assertSame(1, preg_match('/@phpstan-type ' . $name . ' array\{(.*)\}\s*$/m', $doc, $m), "no shape {$name}");
        $keys = [];
        $depth = 0;
        $current = '';
        foreach (str_split($m[1] . ',') as $ch) {
            if ($ch === '{' || $ch === '<') $depth++;
            if ($ch === '}' || $ch === '>') $depth--;
            if ($ch === ',' && $depth === 0) {
                $keys[] = rtrim(trim(explode(':', $current, 2)[0]), '?');
                $current = '';
                continue;
            }
            $current .= $ch;
        }
        sort($keys);
        return $keys;
    }

    /** The properties of the emission schema (`anyOf` of POST /dte/emit) whose `tipo` admits `$tipo` alone or first. */
    private static function schemaKeys(array $spec, int $tipo): array
    {
        $body = $spec['paths']['/v1/dte/emit']['post']['requestBody']['content']['application/json']['schema'];
        $resolve = fn (array $s) => isset($s['$ref']) ? $spec['components']['schemas'][substr($s['$ref'], strlen('#/components/schemas/'))] : $s;
        foreach ($resolve($body)['anyOf'] as $option) {
            $option = $resolve($option);
            $tipos = json_encode($option['properties']['tipo'] ?? []);
            if (preg_match('/"const":' . $tipo . '\b|"enum":\[[^\]]*\b' . $tipo . '\b/', $tipos)) {
                $keys = array_keys($option['properties']);
                sort($keys);
                return $keys;
            }
        }
        self::fail("no emission schema for tipo {$tipo}");
    }

    public function testTheShapesNameTheServersFields(): void
    {
        $spec = json_decode((string) file_get_contents(rtrim(SandboxServer::get()->baseUrl, '/') . '/openapi.json'), true);
        self::assertSame(self::schemaKeys($spec, 43), self::shapeKeys('LiquidationEmitParams'));
        self::assertSame(self::schemaKeys($spec, 110), self::shapeKeys('ExportEmitParams'));
        // PurchaseEmitParams leaves out `precios_brutos`, which a 46 refuses (`not_allowed`).
        self::assertSame(array_values(array_diff(self::schemaKeys($spec, 46), ['precios_brutos'])), self::shapeKeys('PurchaseEmitParams'));
    }

    public function testEachShapeIsEmitted(): void
    {
        $client = self::client();
        foreach ([43, 46, 110] as $tipo) $client->sandbox->numerations->create($tipo, 5);
        $client->businesses->update(SandboxServer::get()->businessId, ['ciudad' => 'Santiago']);
        $receptor = ['rut' => '77777777-7', 'razon_social' => 'Mandante Ltda', 'giro' => 'Agrícola', 'direccion' => 'Fundo El Roble', 'comuna' => 'Talca'];

        $purchase = $client->dte->emit(['tipo' => 46, 'receptor' => $receptor, 'items' => [['nombre' => 'Trigo', 'cantidad' => 2, 'precio' => 5000, 'unidad' => 'Kg', 'retencion' => 34]]]);
        self::assertSame([46, 11500, 400, 1500], [$purchase['tipo'], $purchase['monto_total'], $purchase['monto_iva_retenido'], $purchase['monto_iva_no_retenido']]);

        $liquidation = $client->dte->emit(['tipo' => 43, 'receptor' => $receptor, 'liquidacion' => [
            'documentos' => [['tipo_doc_liq' => 33, 'nombre' => 'Ventas', 'monto' => 234955], ['tipo_doc_liq' => 33, 'nombre' => 'Exento', 'monto' => 55068, 'exento' => true]],
            'comisiones' => [['tipo' => 'C', 'descripcion' => 'Comisión', 'monto_neto' => 4834]],
        ]]);
        self::assertSame([43, 328912], [$liquidation['tipo'], $liquidation['monto_total']]);

        $export = $client->dte->emit([
            'tipo' => 110,
            'receptor' => ['razon_social' => 'IMPORTATORE SRL', 'extranjero' => ['nacionalidad' => 504], 'direccion' => 'Via Roma 1, Genova', 'ciudad' => 'Genova'],
            'items' => [['nombre' => 'Servicio', 'cantidad' => 1, 'precio' => '160677.62']],
            'moneda' => 'DOLAR USA',
            'tipo_cambio' => 950,
            'exportacion' => ['indicador_servicio' => 4, 'pais_receptor' => 504, 'pais_destino' => 504],
        ]);
        self::assertSame(['DOLAR USA', 160677.62, 152643739], [$export['moneda'], $export['monto_total'], $export['monto_total_pesos']]);
    }
}

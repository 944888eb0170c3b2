<?php
// Emit a factura electrónica (33), wait until the SII accepts or rejects it, and save its PDF and XML.
// Run: TIMBRE_API_KEY=sk_test_… php emit-invoice.php   (TIMBRE_API_URL defaults to http://localhost:3000/v1)
declare(strict_types=1);

// With Composer: require 'vendor/autoload.php'. Here, the SDK of this repository without Composer:
require __DIR__ . '/../../packages/sdk-php/autoload.php';

use Timbre\Exception\TimbreException;
use Timbre\Exception\ValidationException;
use Timbre\Timbre;

$client = new Timbre([
    'api_key' => getenv('TIMBRE_API_KEY') ?: null,
    'base_url' => getenv('TIMBRE_API_URL') ?: 'http://localhost:3000/v1',
]);
// The files go to OUT_DIR, by default `out/` beside this script (git-ignored), never the current folder.
$outDir = getenv('OUT_DIR') ?: __DIR__ . '/out';
if (!is_dir($outDir) && !mkdir($outDir, 0777, true) && !is_dir($outDir)) {
    fwrite(STDERR, "cannot create {$outDir}\n");
    exit(1);
}

$invoice = [
    'tipo' => 33,
    'receptor' => [
        'rut' => '76192083-9',
        'razon_social' => 'Cliente Ejemplo SpA',
        'giro' => 'Comercio al por menor',
        'direccion' => 'Av. Apoquindo 4500',
        'comuna' => 'Las Condes',
    ],
    'items' => [
        ['nombre' => 'Consultoría', 'cantidad' => 10, 'precio' => 45000, 'unidad' => 'HORA'],
        ['nombre' => 'Licencia anual', 'cantidad' => 1, 'precio' => 120000, 'descuento_porcentaje' => 10],
    ],
    'forma_pago' => 2,
];

try {
    $dte = $client->dte->emit($invoice);
    printf("Emitted %s: folio %d, total $%s, %s\n", $dte['id'], $dte['folio'], number_format($dte['monto_total'], 0, ',', '.'), $dte['estado']);

    $final = $client->dte->waitForFinalStatus($dte['id'], interval: (float) (getenv('POLL_INTERVAL_S') ?: 3));
    if ($final['estado'] === 'RECHAZADO') {
        fwrite(STDERR, 'The SII rejected the document: ' . json_encode($final['sii']['errores']) . "\n");
        exit(1);
    }
    $pdf = "{$outDir}/factura-{$dte['folio']}.pdf";
    $xml = "{$outDir}/factura-{$dte['folio']}.xml";
    file_put_contents($pdf, $client->dte->pdf($dte['id']));
    file_put_contents($xml, $client->dte->xml($dte['id'])); // keep the signed XML: it is the legal document
    echo "{$final['estado']}. Saved {$pdf} and {$xml}\n";
} catch (ValidationException $error) {
    fwrite(STDERR, "Invalid request ({$error->errorCode}):\n");
    foreach ($error->errors as $issue) {
        fwrite(STDERR, "  {$issue['field']}: {$issue['reason']}\n");
    }
    exit(1);
} catch (TimbreException $error) {
    fwrite(STDERR, get_class($error) . " {$error->errorCode}: {$error->getMessage()}" . ($error->requestId ? " (request {$error->requestId})" : '') . "\n");
    exit(1);
}

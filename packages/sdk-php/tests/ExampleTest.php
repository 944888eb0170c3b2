<?php
declare(strict_types=1);

namespace Timbre\Tests;

use PHPUnit\Framework\TestCase;
use Timbre\Tests\Support\SandboxServer;

/** Runs the PHP example against the real server and checks what it saved. */
final class ExampleTest extends TestCase
{
    public function testTheEmitInvoiceExampleEmitsWaitsAndSavesPdfAndXml(): void
    {
        $server = SandboxServer::get();
        $out = sys_get_temp_dir() . '/timbre-php-example-' . bin2hex(random_bytes(4));
        mkdir($out);
        $env = array_merge(getenv(), ['TIMBRE_API_KEY' => $server->apiKey, 'TIMBRE_API_URL' => $server->baseUrl, 'OUT_DIR' => $out, 'POLL_INTERVAL_S' => '0.2']);
        $process = proc_open([PHP_BINARY, 'emit-invoice.php'], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, SandboxServer::repo() . '/examples/php-emit-invoice', $env);
        $stdout = stream_get_contents($pipes[1]);
        $stderr = stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        $code = proc_close($process);

        try {
            self::assertSame(0, $code, $stderr);
            self::assertSame('', $stderr);
            self::assertStringContainsString('ACEPTADO', $stdout);
            $pdf = glob("{$out}/*.pdf");
            $xml = glob("{$out}/*.xml");
            self::assertCount(1, $pdf);
            self::assertCount(1, $xml);
            self::assertSame('%PDF-', substr((string) file_get_contents($pdf[0]), 0, 5));
            self::assertStringContainsString('<Folio>', (string) file_get_contents($xml[0]));
        } finally {
            array_map('unlink', glob("{$out}/*"));
            rmdir($out);
        }
    }

    public function testTheExampleWritesBesideItselfByDefaultNeverIntoTheCurrentFolder(): void
    {
        $server = SandboxServer::get();
        $script = SandboxServer::repo() . '/examples/php-emit-invoice/emit-invoice.php';
        $out = dirname($script) . '/out';
        $before = is_dir($out) ? (glob("{$out}/*") ?: []) : [];
        $cwd = sys_get_temp_dir() . '/timbre-php-cwd-' . bin2hex(random_bytes(4));
        mkdir($cwd);
        $env = array_merge(getenv(), ['TIMBRE_API_KEY' => $server->apiKey, 'TIMBRE_API_URL' => $server->baseUrl, 'POLL_INTERVAL_S' => '0.2']);
        unset($env['OUT_DIR']);
        $process = proc_open([PHP_BINARY, $script], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, $cwd, $env);
        stream_get_contents($pipes[1]);
        $stderr = stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        $code = proc_close($process);
        $written = array_values(array_diff(glob("{$out}/*") ?: [], $before));

        try {
            self::assertSame(0, $code, $stderr);
            self::assertSame([], array_values(array_diff(scandir($cwd) ?: [], ['.', '..'])));
            $suffixes = array_map(static fn (string $f): string => pathinfo($f, PATHINFO_EXTENSION), $written);
            sort($suffixes);
            self::assertSame(['pdf', 'xml'], $suffixes);
        } finally {
            array_map('unlink', $written);
            array_map('unlink', glob("{$cwd}/*") ?: []);
            rmdir($cwd);
        }
    }
}

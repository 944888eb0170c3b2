<?php
declare(strict_types=1);

namespace Timbre\Tests\Support;

/**
 * The real server and a sandbox tenant (`bun scripts/sdk-sandbox-server.ts --exchange`), started once for the whole
 * run when a test first asks for it and stopped when PHPUnit ends. The server mails through a real SMTP server on
 * loopback that writes each `EnvioDTE` to `mailDir`; a second tenant, the supplier, can issue to the first.
 */
final class SandboxServer
{
    private static ?self $instance = null;

    public readonly string $baseUrl;
    public readonly string $apiKey;
    public readonly string $businessId;
    public readonly string $intercambioEmail;
    public readonly string $mailDir;
    public readonly string $supplierApiKey;
    public readonly string $supplierRut;

    private function __construct(private readonly Helper $helper)
    {
        $info = json_decode($helper->firstLine, true, 512, JSON_THROW_ON_ERROR);
        $this->baseUrl = $info['base_url'];
        $this->apiKey = $info['api_key'];
        $this->businessId = $info['business_id'];
        $this->intercambioEmail = $info['intercambio_email'];
        $this->mailDir = $info['mail_dir'];
        $this->supplierApiKey = $info['supplier']['api_key'];
        $this->supplierRut = $info['supplier']['rut'];
    }

    public static function get(): self
    {
        if (self::$instance === null) {
            $repo = self::repo();
            $bun = getenv('TIMBRE_BUN') ?: (is_file("{$repo}/node_modules/.bin/bun") ? "{$repo}/node_modules/.bin/bun" : 'bun');
            self::$instance = new self(new Helper([$bun, "{$repo}/scripts/sdk-sandbox-server.ts", '--tipos', '33,61', '--exchange'], 300, $repo));
            register_shutdown_function(static fn () => self::$instance?->helper->closeAndWait());
        }
        return self::$instance;
    }

    public static function repo(): string
    {
        return dirname(__DIR__, 4);
    }
}

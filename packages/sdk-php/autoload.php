<?php
// For use without Composer: `require 'path/to/sdk-php/autoload.php';` maps `Timbre\…` to `src/…` (PSR-4).
declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    $prefix = 'Timbre\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});

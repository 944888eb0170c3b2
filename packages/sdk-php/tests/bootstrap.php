<?php
declare(strict_types=1);

require dirname(__DIR__) . '/autoload.php';

spl_autoload_register(static function (string $class): void {
    $prefix = 'Timbre\\Tests\\';
    if (str_starts_with($class, $prefix)) {
        $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
        $file = str_replace('/Support/', '/support/', $file);
        if (is_file($file)) {
            require $file;
        }
    }
});

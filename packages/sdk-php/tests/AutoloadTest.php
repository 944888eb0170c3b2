<?php
declare(strict_types=1);

namespace Timbre\Tests;

use PHPUnit\Framework\TestCase;

/** `autoload.php` (and so Composer's PSR-4 map, which is the same rule) finds every class of `src/`. */
final class AutoloadTest extends TestCase
{
    public function testEveryFileOfSrcDeclaresTheClassItsPathNames(): void
    {
        $src = dirname(__DIR__) . '/src';
        $files = new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($src, \FilesystemIterator::SKIP_DOTS));
        $count = 0;
        foreach ($files as $file) {
            $class = 'Timbre\\' . str_replace('/', '\\', substr($file->getPathname(), strlen($src) + 1, -4));
            self::assertTrue(class_exists($class), "{$class} not found by autoload.php");
            $count++;
        }
        self::assertGreaterThan(20, $count);
        $composer = json_decode((string) file_get_contents(dirname(__DIR__) . '/composer.json'), true, 512, JSON_THROW_ON_ERROR);
        self::assertSame('src/', $composer['autoload']['psr-4']['Timbre\\']);
        self::assertSame('>=8.1', $composer['require']['php']);
    }
}

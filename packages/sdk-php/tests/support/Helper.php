<?php
declare(strict_types=1);

namespace Timbre\Tests\Support;

/** A child process whose first line of stdout is what the test needs (a port, the server's JSON); stopped on teardown. */
final class Helper
{
    /** @var resource */
    private $process;
    /** @var array<int, resource> */
    private array $pipes;
    public readonly string $firstLine;

    /** @param list<string> $command */
    public function __construct(array $command, int $timeoutSeconds = 30, ?string $cwd = null)
    {
        $process = proc_open($command, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', sys_get_temp_dir() . '/timbre-php-helper-' . getmypid() . '.err', 'a']], $pipes, $cwd);
        if (!is_resource($process)) {
            throw new \RuntimeException('cannot start ' . implode(' ', $command));
        }
        $this->process = $process;
        $this->pipes = $pipes;
        $read = [$pipes[1]];
        $write = $except = null;
        $line = '';
        $deadline = time() + $timeoutSeconds;
        while (!str_contains($line, "\n") && time() < $deadline) {
            $ready = [$pipes[1]];
            if (stream_select($ready, $write, $except, 1) > 0) {
                $chunk = fgets($pipes[1]);
                if ($chunk === false) {
                    break;
                }
                $line .= $chunk;
            }
        }
        unset($read);
        if (!str_contains($line, "\n")) {
            $this->stop();
            throw new \RuntimeException('no answer from ' . implode(' ', $command) . ' within ' . $timeoutSeconds . ' s');
        }
        $this->firstLine = trim($line);
    }

    public static function php(string $script, string ...$args): self
    {
        return new self([PHP_BINARY, __DIR__ . '/' . $script, ...$args]);
    }

    public function stop(): void
    {
        if (!is_resource($this->process)) {
            return;
        }
        fclose($this->pipes[0]);
        $status = proc_get_status($this->process);
        if ($status['running']) {
            proc_terminate($this->process);
        }
        fclose($this->pipes[1]);
        proc_close($this->process);
    }

    /** For the sandbox server: closing stdin stops it and its server (it cleans its data directory). */
    public function closeAndWait(int $seconds = 20): void
    {
        fclose($this->pipes[0]);
        $deadline = time() + $seconds;
        while (proc_get_status($this->process)['running'] && time() < $deadline) {
            usleep(100_000);
        }
        if (proc_get_status($this->process)['running']) {
            proc_terminate($this->process);
        }
        fclose($this->pipes[1]);
        proc_close($this->process);
    }
}

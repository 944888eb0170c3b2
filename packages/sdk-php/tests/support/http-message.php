<?php
// Reads one HTTP/1.1 message (headers and a Content-Length body) from a stream socket; shared by the helper servers.
declare(strict_types=1);

/** @return array{0: string, 1: array<string, string>, 2: string} start line, lower-case headers, body */
function read_http_message($socket): array
{
    $data = '';
    while (!str_contains($data, "\r\n\r\n")) {
        $chunk = fread($socket, 65536);
        if ($chunk === false || $chunk === '') {
            if (feof($socket)) {
                return ['', [], ''];
            }
            continue;
        }
        $data .= $chunk;
    }
    [$head, $body] = explode("\r\n\r\n", $data, 2);
    $lines = explode("\r\n", $head);
    $start = array_shift($lines);
    $headers = [];
    foreach ($lines as $line) {
        [$name, $value] = array_pad(explode(':', $line, 2), 2, '');
        $headers[strtolower(trim($name))] = trim($value);
    }
    $length = (int) ($headers['content-length'] ?? 0);
    while (strlen($body) < $length && !feof($socket)) {
        $body .= (string) fread($socket, $length - strlen($body));
    }
    return [$start, $headers, $body];
}

function http_message_bytes(string $start, array $headers, string $body): string
{
    $text = $start . "\r\n";
    foreach ($headers as $name => $value) {
        $text .= "{$name}: {$value}\r\n";
    }
    return $text . "\r\n" . $body;
}

/** A listening socket on a free loopback port; prints the port as the first line of stdout. */
function listen_and_announce()
{
    $server = stream_socket_server('tcp://127.0.0.1:0', $errno, $error);
    if ($server === false) {
        fwrite(STDERR, "cannot listen: {$error}\n");
        exit(1);
    }
    $name = stream_socket_get_name($server, false);
    echo substr($name, strrpos($name, ':') + 1), "\n";
    return $server;
}

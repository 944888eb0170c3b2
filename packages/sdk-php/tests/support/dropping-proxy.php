<?php
// A TCP proxy in front of the server: for the first <drop> connections it forwards the request, waits for the
// server's whole answer, then closes the client's connection without a byte (the work is done, the answer lost).
// Every request's Idempotency-Key is appended to <log>, one per line ("-" when none).
// Run: php dropping-proxy.php <upstream host:port> <drop> <log>
declare(strict_types=1);
require __DIR__ . '/http-message.php';

[, $upstream, $drop, $log] = $argv;
$server = listen_and_announce();
for ($seen = 1; ; $seen++) {
    $client = @stream_socket_accept($server, -1);
    if ($client === false) {
        continue;
    }
    [$start, $headers, $body] = read_http_message($client);
    file_put_contents($log, ($headers['idempotency-key'] ?? '-') . "\n", FILE_APPEND);
    $headers['connection'] = 'close';
    $out = stream_socket_client("tcp://{$upstream}", $errno, $error, 30);
    fwrite($out, http_message_bytes($start, $headers, $body));
    [$answerStart, $answerHeaders, $answerBody] = read_http_message($out);
    fclose($out);
    if ($seen > (int) $drop) {
        fwrite($client, http_message_bytes($answerStart, $answerHeaders, $answerBody));
    }
    fclose($client);
}

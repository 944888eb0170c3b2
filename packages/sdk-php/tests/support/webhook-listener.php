<?php
// Records every delivery (raw body, headers) as a JSON line in <log> and answers 200. Run: php webhook-listener.php <log>
declare(strict_types=1);
require __DIR__ . '/http-message.php';

[, $log] = $argv;
$server = listen_and_announce();
while (true) {
    $client = @stream_socket_accept($server, -1);
    if ($client === false) {
        continue;
    }
    [, $headers, $body] = read_http_message($client);
    file_put_contents($log, json_encode(['body' => base64_encode($body), 'headers' => $headers]) . "\n", FILE_APPEND);
    fwrite($client, "HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
    fclose($client);
}

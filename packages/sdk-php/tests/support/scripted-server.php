<?php
// Answers each request with the next answer of <answers.json> ([[status, {headers}, body], …]) and appends each
// request's lower-case headers as a JSON line to <log>. Run: php scripted-server.php <answers.json> <log>
declare(strict_types=1);
require __DIR__ . '/http-message.php';

[, $answersFile, $log] = $argv;
$answers = json_decode((string) file_get_contents($answersFile), true);
$server = listen_and_announce();
while (true) {
    $client = @stream_socket_accept($server, -1);
    if ($client === false) {
        continue;
    }
    [, $headers] = read_http_message($client);
    file_put_contents($log, json_encode($headers) . "\n", FILE_APPEND);
    [$status, $extra, $body] = array_shift($answers) ?? [500, [], ['success' => false]];
    $payload = json_encode($body);
    $all = $extra + ['content-type' => 'application/json', 'content-length' => (string) strlen($payload), 'connection' => 'close'];
    fwrite($client, http_message_bytes("HTTP/1.1 {$status} Scripted", $all, $payload));
    fclose($client);
}

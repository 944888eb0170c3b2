<?php
declare(strict_types=1);

namespace Timbre;

use Timbre\Resource\Auth;
use Timbre\Resource\Businesses;
use Timbre\Resource\Dte;
use Timbre\Resource\Events;
use Timbre\Resource\Issuers;
use Timbre\Resource\Numerations;
use Timbre\Resource\Received;
use Timbre\Resource\Rut;
use Timbre\Resource\SandboxNumerations;
use Timbre\Resource\Tokens;

/**
 * The Timbre API client. Resources mirror the URLs: `$client->dte->emit([...])` is `POST /v1/dte/emit`; arrays in
 * and out.
 *
 *     $client = new \Timbre\Timbre(['api_key' => 'sk_test_…', 'base_url' => 'http://localhost:3000']);
 */
final class Timbre
{
    public const VERSION = '0.1.0';
    public const DEFAULT_BASE_URL = 'http://localhost:3000/v1';

    public readonly Dte $dte;
    public readonly Businesses $businesses;
    public readonly Numerations $numerations;
    public readonly Sandbox $sandbox;
    public readonly Tokens $tokens;
    public readonly Events $events;
    public readonly Received $received;
    public readonly Auth $auth;
    public readonly Rut $rut;
    public readonly Issuers $issuers;
    private readonly Transport $transport;

    /**
     * Options: `api_key` (`sk_test_…`/`sk_live_…`) or `access_token` (a session, with `business_id` and
     * `environment` for `/dte` and `/events`); `base_url` with or without `/v1` (default http://localhost:3000/v1);
     * `timeout` per attempt in seconds (default 30); `max_retries` (default 2) for connection failures, 429 and 5xx;
     * `initial_retry_delay` / `max_retry_delay` in seconds (0.5 / 8).
     *
     * @param array<string, mixed> $options
     */
    public function __construct(private readonly array $options = [])
    {
        $unknown = array_diff(array_keys($options), ['api_key', 'access_token', 'business_id', 'environment', 'base_url', 'timeout', 'max_retries', 'initial_retry_delay', 'max_retry_delay']);
        if ($unknown !== []) {
            throw new \InvalidArgumentException('Unknown Timbre option(s): ' . implode(', ', $unknown));
        }
        $this->transport = new Transport($options);
        $this->dte = new Dte($this->transport);
        $this->businesses = new Businesses($this->transport);
        $this->numerations = new Numerations($this->transport);
        $this->sandbox = new Sandbox(new SandboxNumerations($this->transport));
        $this->tokens = new Tokens($this->transport);
        $this->events = new Events($this->transport);
        $this->received = new Received($this->transport);
        $this->auth = new Auth($this->transport);
        $this->rut = new Rut($this->transport);
        $this->issuers = new Issuers($this->transport);
    }

    /** The API root this client calls, always ending in `/v1`. */
    public function baseUrl(): string
    {
        return $this->transport->baseUrl;
    }

    /** The last successful answer's status, headers, request id and whether it was an idempotent replay. */
    public function lastResponse(): ?Response
    {
        return $this->transport->lastResponse;
    }

    /** `GET /health` (no credential needed). */
    public function health(): array
    {
        return $this->transport->request('GET', 'health')[0];
    }

    /** A new client with some options changed (e.g. another business for a session). */
    public function withOptions(array $changes): self
    {
        return new self(array_merge($this->options, $changes));
    }
}

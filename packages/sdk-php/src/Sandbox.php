<?php
declare(strict_types=1);

namespace Timbre;

use Timbre\Resource\SandboxNumerations;

/** Development helpers of a server in sandbox mode: `$client->sandbox->numerations->create(33, 100)`. */
final class Sandbox
{
    public function __construct(public readonly SandboxNumerations $numerations)
    {
    }
}

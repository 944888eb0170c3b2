<?php
declare(strict_types=1);

namespace Timbre\Exception;

/** Any other refusal (413 payload too large, 415 unsupported media type, …). */
final class ApiException extends TimbreException
{
}

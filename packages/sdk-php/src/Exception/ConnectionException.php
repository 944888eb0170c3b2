<?php
declare(strict_types=1);

namespace Timbre\Exception;

/** No answer: connection refused or dropped, DNS, or a timeout (errorCode CONNECTION_ERROR or TIMEOUT). */
final class ConnectionException extends TimbreException
{
}

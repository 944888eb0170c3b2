<?php
declare(strict_types=1);

namespace Timbre\Exception;

/** 5xx, or an answer that is not the API's envelope: the service failed; retry later. */
final class ServerException extends TimbreException
{
}

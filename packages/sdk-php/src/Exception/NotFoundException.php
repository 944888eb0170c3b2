<?php
declare(strict_types=1);

namespace Timbre\Exception;

/** 404: unknown route, or a resource not visible to this credential. */
final class NotFoundException extends TimbreException
{
}

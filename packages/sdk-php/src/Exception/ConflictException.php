<?php
declare(strict_types=1);

namespace Timbre\Exception;

/** 409: duplicate (email, business RUT, overlapping CAF), a state that forbids it, or a key still running. */
final class ConflictException extends TimbreException
{
}

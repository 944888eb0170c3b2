<?php
declare(strict_types=1);

namespace Timbre\Exception;

/** 401: missing, unknown, revoked or expired credential. Fix the key or log in again. */
final class AuthenticationException extends TimbreException
{
}

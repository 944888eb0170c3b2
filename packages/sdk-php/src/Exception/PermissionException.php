<?php
declare(strict_types=1);

namespace Timbre\Exception;

/** 403: the credential lacks `requiredPermission()`. Use a key with more permissions. */
final class PermissionException extends TimbreException
{
    public function requiredPermission(): ?string
    {
        $value = $this->details['required_permission'] ?? null;
        return is_string($value) ? $value : null;
    }
}

<?php
declare(strict_types=1);

namespace Timbre\Exception;

/** The signature, timestamp or body of a webhook delivery is not acceptable: answer 400 and drop it. */
final class WebhookVerificationException extends \UnexpectedValueException
{
}

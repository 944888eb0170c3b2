<?php
declare(strict_types=1);

namespace Timbre\Resource;

use Timbre\ListIterator;

/** Events and their webhook deliveries: `/v1/events`. */
final class Events extends AbstractResource
{
    /** Newest first; filter `event` (e.g. `dte.status_changed`), `page`, `limit`. */
    public function list(array $filters = []): ListIterator
    {
        return $this->paginate('events', $filters);
    }

    /** `POST /events/{id}/resend`: queues a new delivery now. */
    public function resend(string $id): array
    {
        return $this->call('POST', 'events/' . self::seg($id) . '/resend');
    }
}

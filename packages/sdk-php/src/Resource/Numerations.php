<?php
declare(strict_types=1);

namespace Timbre\Resource;

use Timbre\ListIterator;

/** Folio ranges (CAFs): `/v1/businesses/{id}/numerations` and `/v1/numerations/{id}`. */
final class Numerations extends AbstractResource
{
    /** Filters `tipo`, `estado`, `page`, `limit`. */
    public function list(string $businessId, array $filters = []): ListIterator
    {
        return $this->paginate('businesses/' . self::seg($businessId) . '/numerations', $filters);
    }

    /** Uploads a CAF (its XML text as the SII issued it). */
    public function create(string $businessId, string $cafXml, array $options = []): array
    {
        return $this->call('POST', 'businesses/' . self::seg($businessId) . '/numerations', body: ['caf_xml' => $cafXml], call: self::opts($options));
    }

    public function retrieve(string $id): array
    {
        return $this->call('GET', 'numerations/' . self::seg($id));
    }
}

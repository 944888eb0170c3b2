<?php
declare(strict_types=1);

namespace Timbre\Resource;

use Timbre\ListIterator;

/** Businesses (issuers): `/v1/businesses`. */
final class Businesses extends AbstractResource
{
    /** `GET /businesses` (an API key sees only its own business). */
    public function list(array $filters = []): ListIterator
    {
        return $this->paginate('businesses', $filters);
    }

    /** `POST /businesses`; with `webhook_url` the answer carries `webhook_secret` this once. */
    public function create(array $body, array $options = []): array
    {
        return $this->call('POST', 'businesses', body: $body, call: self::opts($options));
    }

    public function retrieve(string $id): array
    {
        return $this->call('GET', 'businesses/' . self::seg($id));
    }

    /** `PUT /businesses/{id}`: partial update; setting `webhook_url` the first time returns `webhook_secret`. */
    public function update(string $id, array $body): array
    {
        return $this->call('PUT', 'businesses/' . self::seg($id), body: $body);
    }

    /** `DELETE /businesses/{id}`: soft delete; its keys are revoked, its documents kept. */
    public function delete(string $id): array
    {
        return $this->call('DELETE', 'businesses/' . self::seg($id));
    }

    /** `POST /businesses/{id}/certificate`: the PKCS#12 file's bytes and its password (not stored). */
    public function uploadCertificate(string $id, string $pfx, string $password): array
    {
        return $this->call('POST', 'businesses/' . self::seg($id) . '/certificate', body: ['pfx_base64' => base64_encode($pfx), 'password' => $password]);
    }

    /** `POST /businesses/{id}/webhook-secret`: `['webhook_secret' => 'whsec_…']`; the old one signs for 24 h more. */
    public function rotateWebhookSecret(string $id): array
    {
        return $this->call('POST', 'businesses/' . self::seg($id) . '/webhook-secret');
    }
}

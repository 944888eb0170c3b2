<?php
declare(strict_types=1);

namespace Timbre\Resource;

use Timbre\ListIterator;

/** Documents suppliers sent the business (API §12): `/v1/received`. */
final class Received extends AbstractResource
{
    /** Imports an `EnvioDTE`: `['results' => [[index, success, data?, duplicate?, error?], …]]`. */
    public function create(string $xml, ?string $replyTo = null, array $options = []): array
    {
        $body = ['xml' => $xml] + ($replyTo === null ? [] : ['reply_to' => $replyTo]);
        return $this->call('POST', 'received', body: $body, call: self::opts($options));
    }

    /** Filters `emisor_rut`, `tipo`, `estado`, `desde`, `hasta`, `page`, `limit`. */
    public function list(array $filters = []): ListIterator
    {
        return $this->paginate('received', $filters);
    }

    /** Messages that could not be imported, with the reason (kept 30 days). */
    public function inbox(array $filters = []): ListIterator
    {
        return $this->paginate('received/inbox', $filters);
    }

    public function retrieve(string $id): array
    {
        return $this->call('GET', 'received/' . self::seg($id));
    }

    public function xml(string $id): string
    {
        return $this->call('GET', 'received/' . self::seg($id) . '/xml', call: ['raw' => true]);
    }

    public function pdf(string $id, array $params = []): string
    {
        return $this->call('GET', 'received/' . self::seg($id) . '/pdf', $params, call: ['raw' => true]);
    }

    /** `['recibo_mercaderias'?, 'recinto'?]`: registers the acceptance and answers the sender. */
    public function aceptar(string $id, array $body = [], array $options = []): array
    {
        return $this->call('POST', 'received/' . self::seg($id) . '/aceptar', body: $body, call: self::opts($options));
    }

    /** `['accion' => 'RCD'|'RFP'|'RFT', 'motivo' => …]`: registers the claim and answers the sender. */
    public function reclamar(string $id, array $body, array $options = []): array
    {
        return $this->call('POST', 'received/' . self::seg($id) . '/reclamar', body: $body, call: self::opts($options));
    }
}

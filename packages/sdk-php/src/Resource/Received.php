<?php
declare(strict_types=1);

namespace Timbre\Resource;

use Timbre\ListIterator;

/**
 * Documents suppliers sent the business (API §12): `/v1/received`. They arrive by mail at the business's intercambio
 * address or through `import()`; each is verified and kept, and the business accepts or claims it within the 8 days
 * the law gives (`plazo_hasta`).
 *
 * @phpstan-type ReceivedEvent array{codigo: string, descripcion: string, rut_responsable: ?string, fecha: ?string, origen: 'timbre'|'sii'}
 * @phpstan-type ReceivedDocument array{
 *     id: string,
 *     emisor: array{rut: string, razon_social: string, giro: ?string},
 *     tipo: int, folio: int, fecha: string,
 *     monto_neto: int, monto_exento: int, monto_iva: int, monto_total: int,
 *     items: list<array<string, mixed>>, referencias: list<array<string, mixed>>,
 *     recibido_at: string, recibido_sii_at: ?string, plazo_hasta: ?string,
 *     estado: 'SIN_RESPUESTA'|'ACEPTADO'|'RECLAMADO'|'ACEPTADO_TACITO'|'NO_APLICA',
 *     eventos: list<ReceivedEvent>,
 *     verificacion: array{firma: string, firma_variante?: string, timbre: string, caf: string, receptor: string, emisor?: string},
 *     superseded_by: ?string, environment: string, created_at: string
 * }
 * @phpstan-type ImportResult array{index: int, success: bool, data?: ReceivedDocument, duplicate?: true, error?: array{code: string, message: string, details?: mixed}}
 * @phpstan-type InboxItem array{id: string, source: string, reason: string, detail: string, from: ?string, subject: ?string, filename: ?string, created_at: string}
 */
final class Received extends AbstractResource
{
    /**
     * `POST /received`: imports an `EnvioDTE` file a supplier sent, its bytes as they are (ISO-8859-1 files too).
     * `$replyTo` is where the answers go when the SII's list has no address for the supplier. A bad envelope throws
     * a ValidationException with code `ENVELOPE_INVALID` (`details['reason']`: format, schema, signature,
     * not_addressed) and nothing is kept; a document seen before comes back with `duplicate: true`.
     *
     *     $results = $client->received->import(file_get_contents('EnvioDTE.xml'))['results'];
     *
     * @param array{idempotency_key?: string} $options
     * @return array{results: list<ImportResult>}
     */
    public function import(string $xml, ?string $replyTo = null, array $options = []): array
    {
        $call = self::opts($options);
        if ($replyTo === null) {
            return $this->call('POST', 'received', body: $xml, call: $call + ['content_type' => 'application/xml']);
        }
        $boundary = 'timbre-' . bin2hex(random_bytes(16));
        $form = "--{$boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"envio.xml\"\r\nContent-Type: application/xml\r\n\r\n{$xml}\r\n"
            . "--{$boundary}\r\nContent-Disposition: form-data; name=\"reply_to\"\r\n\r\n{$replyTo}\r\n--{$boundary}--\r\n";
        return $this->call('POST', 'received', body: $form, call: $call + ['content_type' => "multipart/form-data; boundary={$boundary}"]);
    }

    /**
     * `GET /received`, newest first; filters `emisor_rut`, `tipo`, `estado`, `desde`, `hasta` (on `fecha`), `page`,
     * `limit`. `foreach` walks every page; each item is a ReceivedDocument.
     *
     *     foreach ($client->received->list(['estado' => 'SIN_RESPUESTA']) as $doc) { echo $doc['plazo_hasta']; }
     *
     * @param array{emisor_rut?: string, tipo?: int, estado?: string, desde?: string, hasta?: string, page?: int, limit?: int} $filters
     */
    public function list(array $filters = []): ListIterator
    {
        return $this->paginate('received', $filters);
    }

    /**
     * `GET /received/inbox`: messages that could not be imported, with the reason (kept 30 days); items are InboxItem.
     *
     * @param array{page?: int, limit?: int} $filters
     */
    public function inbox(array $filters = []): ListIterator
    {
        return $this->paginate('received/inbox', $filters);
    }

    /**
     * `GET /received/{id}`.
     *
     * @return ReceivedDocument
     */
    public function retrieve(string $id): array
    {
        return $this->call('GET', 'received/' . self::seg($id));
    }

    /** `GET /received/{id}/xml`: the DTE exactly as received (bytes, ISO-8859-1). */
    public function xml(string $id): string
    {
        return $this->call('GET', 'received/' . self::seg($id) . '/xml', call: ['raw' => true]);
    }

    /**
     * `GET /received/{id}/pdf`: Timbre's printed representation (bytes).
     *
     * @param array{formato?: 'carta'|'termica'} $params
     */
    public function pdf(string $id, array $params = []): string
    {
        return $this->call('GET', 'received/' . self::seg($id) . '/pdf', $params, call: ['raw' => true]);
    }

    /**
     * `POST /received/{id}/aceptar`: registers ACD (and ERM with `recibo_mercaderias`) in the SII's registry and
     * answers the supplier; `estado` becomes `ACEPTADO`. A ConflictException when already decided
     * (`already_decided`), past the 8 days (`deadline_passed`) or not at the SII yet (`not_at_sii`).
     *
     *     $client->received->accept('rcv_…', ['recibo_mercaderias' => true, 'recinto' => 'Bodega central']);
     *
     * @param array{recibo_mercaderias?: bool, recinto?: string} $body `recinto` ≤ 80 characters (default the business's address)
     * @param array{idempotency_key?: string} $options
     * @return ReceivedDocument
     */
    public function accept(string $id, array $body = [], array $options = []): array
    {
        return $this->call('POST', 'received/' . self::seg($id) . '/aceptar', body: $body, call: self::opts($options));
    }

    /**
     * `POST /received/{id}/reclamar`: registers the claim and answers the supplier (rejected); `estado` becomes
     * `RECLAMADO`. `accion`: `RCD` reclamo al contenido, `RFP` falta parcial de mercaderías, `RFT` falta total.
     *
     *     $client->received->claim('rcv_…', ['accion' => 'RCD', 'motivo' => 'Precio distinto al acordado']);
     *
     * @param array{accion: 'RCD'|'RFP'|'RFT', motivo: string} $body `motivo` 1–200 characters
     * @param array{idempotency_key?: string} $options
     * @return ReceivedDocument
     */
    public function claim(string $id, array $body, array $options = []): array
    {
        return $this->call('POST', 'received/' . self::seg($id) . '/reclamar', body: $body, call: self::opts($options));
    }
}

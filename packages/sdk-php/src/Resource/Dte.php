<?php
declare(strict_types=1);

namespace Timbre\Resource;

use Timbre\Exception\TimbreException;
use Timbre\ListIterator;

/** Electronic tax documents: `/v1/dte`. */
final class Dte extends AbstractResource
{
    private const FINAL_STATES = ['ACEPTADO', 'ACEPTADO_CON_REPAROS', 'RECHAZADO'];

    /** `POST /dte/emit`: validate, take a folio, sign, send to the SII. Retries reuse one idempotency key. */
    public function emit(array $body, array $options = []): array
    {
        return $this->call('POST', 'dte/emit', body: $body, call: self::opts($options));
    }

    /** `POST /dte/batch`: up to 500 documents; `['results' => [[index, success, data?, error?], …]]`. */
    public function batch(array $documents, array $options = []): array
    {
        return $this->call('POST', 'dte/batch', body: ['documents' => $documents], call: self::opts($options));
    }

    /** `POST /dte/batch/preview`: checks and totals of a batch; consumes no folio. */
    public function batchPreview(array $documents): array
    {
        return $this->call('POST', 'dte/batch/preview', body: ['documents' => $documents]);
    }

    /** `POST /dte/preview`: `['totals' => …, 'xml_preview' => …]`; consumes no folio, stores nothing. */
    public function preview(array $body): array
    {
        return $this->call('POST', 'dte/preview', body: $body);
    }

    /** `POST /dte/preview?format=pdf`: a PDF marked "SIN VALIDEZ TRIBUTARIA" (bytes). */
    public function previewPdf(array $body): string
    {
        return $this->call('POST', 'dte/preview', ['format' => 'pdf'], $body, ['raw' => true]);
    }

    /**
     * `GET /dte`, newest first; filters `tipo`, `desde`, `hasta`, `estado`, `folio`, `receptor_rut`, `page`, `limit`.
     * `foreach` walks every page.
     */
    public function list(array $filters = []): ListIterator
    {
        return $this->paginate('dte', $filters);
    }

    /** `GET /dte/resumen`: sales per tipo between two tax dates. */
    public function summary(string $desde, string $hasta): array
    {
        return $this->call('GET', 'dte/resumen', ['desde' => $desde, 'hasta' => $hasta]);
    }

    /** `GET /dte/{id}`: the document with items, references and history. */
    public function retrieve(string $id): array
    {
        return $this->call('GET', 'dte/' . self::seg($id));
    }

    /** `GET /dte/{id}/status`; `['refresh' => true]` asks the SII now. */
    public function status(string $id, array $params = []): array
    {
        return $this->call('GET', 'dte/' . self::seg($id) . '/status', $params);
    }

    /** `GET /dte/{id}/aceptacion`: the receiver's decision in the SII's registry. */
    public function acceptance(string $id, array $params = []): array
    {
        return $this->call('GET', 'dte/' . self::seg($id) . '/aceptacion', $params);
    }

    /** `GET /dte/{id}/pdf` (bytes); params `formato` (`carta`, `termica`), `cedible`. */
    public function pdf(string $id, array $params = []): string
    {
        return $this->call('GET', 'dte/' . self::seg($id) . '/pdf', $params, call: ['raw' => true]);
    }

    /** `GET /dte/{id}/xml`: the exact signed bytes (ISO-8859-1); `['envio' => true]` for the whole envelope. */
    public function xml(string $id, array $params = []): string
    {
        return $this->call('GET', 'dte/' . self::seg($id) . '/xml', $params, call: ['raw' => true]);
    }

    /** `POST /dte/{id}/anular`: issues the credit note that annuls the document. */
    public function anular(string $id, array $body = [], array $options = []): array
    {
        return $this->call('POST', 'dte/' . self::seg($id) . '/anular', body: $body, call: self::opts($options));
    }

    /**
     * `POST /dte/{id}/enviar` (202): sends the accepted document (again) to its receivers, or to one `email`; the
     * answer is its `intercambio`. A ConflictException (`not_accepted`) before the SII accepted it; a
     * RateLimitException past 5 sends of one document a day.
     *
     *     $delivery = $client->dte->enviar('dte_…', ['email' => 'contabilidad@cliente.cl']);
     *
     * @param array{email?: string} $body
     * @param array{idempotency_key?: string} $options
     * @return array{
     *     destinatarios: list<string>,
     *     estado: 'PENDIENTE'|'ENVIADO'|'FALLIDO'|'SIN_DESTINATARIO'|'SIN_CORREO'|'NO_APLICA',
     *     enviado_at: ?string, intentos: int, error: ?string,
     *     respuestas: list<array{tipo: 'recepcion'|'resultado'|'recibo', codigo: int, glosa: string, at: string}>
     * }
     */
    public function enviar(string $id, array $body = [], array $options = []): array
    {
        return $this->call('POST', 'dte/' . self::seg($id) . '/enviar', body: $body, call: self::opts($options));
    }

    /** Polls `status(refresh)` until ACEPTADO, ACEPTADO_CON_REPAROS or RECHAZADO (seconds). */
    public function waitForFinalStatus(string $id, float $interval = 2.0, float $timeout = 120.0): array
    {
        $deadline = microtime(true) + $timeout;
        while (true) {
            $status = $this->status($id, ['refresh' => true]);
            if (in_array($status['estado'] ?? null, self::FINAL_STATES, true)) {
                return $status;
            }
            if (microtime(true) + $interval > $deadline) {
                throw new TimbreException("Document {$id} is still {$status['estado']} after {$timeout} s; check again later with dte->status().", 'WAIT_TIMEOUT', details: ['estado' => $status['estado']]);
            }
            usleep((int) ($interval * 1e6));
        }
    }
}

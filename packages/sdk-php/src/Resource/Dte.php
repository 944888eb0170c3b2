<?php
declare(strict_types=1);

namespace Timbre\Resource;

use Timbre\Exception\TimbreException;
use Timbre\ListIterator;

/**
 * Electronic tax documents: `/v1/dte`. The array shapes below are the API's request and response bodies (API.md
 * §6.3, §13), for PHPStan/Psalm and IDEs; the server checks every body and refuses unknown fields.
 *
 * @phpstan-type Receptor array{rut: string, razon_social: string, giro?: string, direccion?: string, comuna?: string, ciudad?: string, email?: string, contacto?: string}
 * @phpstan-type Referencia array{tipo_doc: int|string, folio: int|string, fecha: string, razon?: string, codigo?: 1|2|3}
 * @phpstan-type EmitParams array{tipo: int, fecha?: string, receptor: Receptor, items: list<array{nombre: string, cantidad: int|float, precio: int|float, unidad?: string, descuento_porcentaje?: int|float, descripcion?: string, codigo?: string, exento?: bool, impuesto_adicional?: int}>, precios_brutos?: bool, referencia?: Referencia, referencias?: list<Referencia>, forma_pago?: 1|2|3, descuento_global_porcentaje?: int|float, observaciones?: string, traslado?: array{tipo: int, despacho?: int}, transporte?: array<string, mixed>}
 *
 * 46 factura de compra: the receptor is the seller; each line retains IVA with `retencion` (15 all of it, the
 * default; 30, 32, 33, 34, 36, 37, 48 partly and their totals 301…481; 31, 38, 39, 41, 47, 49; null none). A 56/61
 * referencing a 46 takes this shape too.
 * @phpstan-type PurchaseEmitParams array{tipo: 46|56|61, fecha?: string, receptor: Receptor, items: list<array{nombre: string, cantidad: int|float, precio: int|float, unidad?: string, descuento_porcentaje?: int|float, descripcion?: string, codigo?: string, exento?: bool, retencion?: int|null}>, referencia?: Referencia, referencias?: list<Referencia>, forma_pago?: 1|2|3, descuento_global_porcentaje?: int|float, observaciones?: string}
 *
 * 43 liquidación-factura: the documents an agent settles for its principal (the receptor; amounts may be negative)
 * and its commissions, whose IVA is computed. A 56/61 referencing a 43 with `liquidacion` repeats it (what
 * `anular` of a 43 issues; no negative amounts there).
 * @phpstan-type SettledDocument array{tipo_doc_liq: int, nombre: string, descripcion?: string, cantidad?: int|float, unidad?: string, monto: int, exento?: bool}
 * @phpstan-type Commission array{tipo: 'C'|'O', descripcion: string, tasa_comision?: int|float, monto_neto: int, monto_exento?: int}
 * @phpstan-type LiquidationEmitParams array{tipo: 43|56|61, fecha?: string, receptor: Receptor, liquidacion: array{documentos: list<SettledDocument>, comisiones?: list<Commission>}, forma_pago?: 1|2|3, referencia?: Referencia, referencias?: list<Referencia>}
 *
 * 110 factura de exportación, 111/112 export debit/credit notes: a foreign buyer (RUT 55555555-5), amounts in
 * `moneda` by the SII's name ("DOLAR USA", "EURO"; an ISO code is refused), `tipo_cambio` pesos per unit, the
 * Aduana's codes in `exportacion`. Decimals may go as numbers or as decimal strings ("112517.5").
 * @phpstan-type ExportReceptor array{razon_social: string, extranjero?: array{num_id?: string, nacionalidad?: int}, giro?: string, direccion?: string, ciudad?: string, email?: string}
 * @phpstan-type ExportItem array{nombre: string, cantidad: int|float|string, precio: int|float|string, unidad?: string, descripcion?: string, codigo?: string, descuento_porcentaje?: int|float, recargo_porcentaje?: int|float}
 * @phpstan-type Package array{tipo: int, cantidad: int, marcas: string, id_container?: string, sello?: string, emisor_sello?: string}
 * @phpstan-type Customs array{modalidad_venta?: int, clausula_venta?: int, total_clausula?: int|float|string, via_transporte?: int, nombre_transporte?: string, puerto_embarque?: int, puerto_desembarque?: int, tara?: int|float|string, unidad_tara?: int, peso_bruto?: int|float|string, unidad_peso_bruto?: int, peso_neto?: int|float|string, unidad_peso_neto?: int, total_items?: int, bultos?: list<Package>, flete?: int|float|string, seguro?: int|float|string, pais_receptor?: int, pais_destino?: int, indicador_servicio?: 3|4|5}
 * @phpstan-type ExportEmitParams array{tipo: 110|111|112, fecha?: string, receptor: ExportReceptor, items: list<ExportItem>, moneda: string, tipo_cambio: int|float|string, forma_pago_exportacion?: int, fecha_cancelacion?: string, exportacion?: Customs, referencia?: Referencia, referencias?: list<Referencia>}
 *
 * A document as the API answers it. 46: `monto_iva_retenido`, `monto_iva_no_retenido`; 110–112: `moneda`,
 * `tipo_cambio`, `monto_total_pesos`, and `monto_exento`/`monto_total` in the document's currency (in lists too).
 * @phpstan-type DteData array{id: string, tipo: int, folio: int, fecha_emision: string, fecha: string, receptor: array{rut: string, razon_social: string|null}, monto_neto: int, monto_exento: int|float, monto_iva: int, monto_total: int|float, monto_iva_retenido?: int, monto_iva_no_retenido?: int, moneda?: string, tipo_cambio?: int|float, monto_total_pesos?: int, estado: string, track_id: string|null, pdf_url: string, xml_url: string, environment: string, created_at: string}
 */
final class Dte extends AbstractResource
{
    private const FINAL_STATES = ['ACEPTADO', 'ACEPTADO_CON_REPAROS', 'RECHAZADO'];

    /**
     * `POST /dte/emit`: validate, take a folio, sign, send to the SII. Retries reuse one idempotency key.
     *
     * @param EmitParams|PurchaseEmitParams|LiquidationEmitParams|ExportEmitParams $body
     * @param array{idempotency_key?: string} $options
     * @return DteData
     */
    public function emit(array $body, array $options = []): array
    {
        return $this->call('POST', 'dte/emit', body: $body, call: self::opts($options));
    }

    /**
     * `POST /dte/batch`: up to 500 documents; `['results' => [[index, success, data?, error?], …]]`.
     *
     * @param list<EmitParams|PurchaseEmitParams|LiquidationEmitParams|ExportEmitParams> $documents
     * @param array{idempotency_key?: string} $options
     * @return array{results: list<array{index: int, success: bool, data?: DteData, error?: array<string, mixed>}>}
     */
    public function batch(array $documents, array $options = []): array
    {
        return $this->call('POST', 'dte/batch', body: ['documents' => $documents], call: self::opts($options));
    }

    /** `POST /dte/batch/preview`: checks and totals of a batch; consumes no folio. */
    public function batchPreview(array $documents): array
    {
        return $this->call('POST', 'dte/batch/preview', body: ['documents' => $documents]);
    }

    /**
     * `POST /dte/preview`: `['totals' => …, 'xml_preview' => …]`; consumes no folio, stores nothing.
     *
     * @param EmitParams|PurchaseEmitParams|LiquidationEmitParams|ExportEmitParams $body
     * @return array{totals: array<string, mixed>, xml_preview: string}
     */
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

    /**
     * `GET /dte/{id}`: the document with items, references and history.
     *
     * @return array<string, mixed> a DteData with the whole `receptor`, `items`, `referencias`, `historial`, `intercambio`
     */
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

    /**
     * `POST /dte/{id}/anular`: issues the note that annuls the document — a 61 (for a 43, one repeating its settled
     * documents and commissions), for an export a 112 (a 111 for a 112).
     *
     * @param array{razon?: string, fecha?: string, receptor?: array<string, string>} $body
     * @param array{idempotency_key?: string} $options
     * @return DteData
     */
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

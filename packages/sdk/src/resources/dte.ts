import { sendInChunks, withContentKeys } from "../batch-chunks.js";
import { TimbreError } from "../errors.js";
import { PagePromise } from "../pagination.js";
import type { RequestOptions } from "../transport.js";
import type {
  AnularParams,
  BatchDocument,
  BatchParams,
  BatchResult,
  BatchPreviewItem,
  BatchPreviewResult,
  BatchResultItem,
  Dte,
  DteAcceptance,
  DteDetail,
  DteListParams,
  DtePdfParams,
  DteStatusParams,
  DteStatusResult,
  DteXmlParams,
  AnyEmitParams,
  PreviewResult,
  SalesSummary,
  SalesSummaryParams, WithLastResponse } from "../types.js";
import type { DteEnviarParams, Intercambio } from "../types.js";
import { FINAL_DTE_STATUSES } from "../types.js";
import { Resource, seg } from "./resource.js";

const REQUEST_OPTION_KEYS = new Set(["idempotencyKey", "timeout", "maxRetries", "businessId", "environment", "signal", "headers"]);

export interface BatchAllResult extends BatchResult {
  /** Batch requests sent. */
  requests: number;
  /** Documents answered as emitted before under their `idempotency_key` (`replayed: true`): no folio taken. */
  replayed: number;
}

export interface BatchAllOptions {
  /** Documents per request, at most 500 (default 500); requests also stay under 1 MB. */
  chunkSize?: number;
  /**
   * Key each document by its content (`withContentKeys`), so that calling again within 24 h with the same list — or
   * with some documents fixed — emits only the documents not emitted before; the others are answered as they were
   * (`replayed`). For a list that is one set of sales (a spreadsheet, the day's export); without it (default) every
   * call emits every document, as two equal boletas sold an hour apart must be. Documents' own keys are kept.
   */
  contentKeys?: boolean;
  /** Called after each request with every result so far. */
  onProgress?: (results: readonly BatchResultItem[], total: number) => void;
}

export interface WaitOptions {
  /** Milliseconds between polls (default 2 000). */
  interval?: number;
  /** Give up after this many ms (default 120 000); throws `TimbreError` code `WAIT_TIMEOUT`. */
  timeout?: number;
  /** Ask the SII on each poll (`refresh=true`, default true). */
  refresh?: boolean;
  /** Called with every answer, e.g. to show progress. */
  onPoll?: (status: DteStatusResult) => void;
  signal?: AbortSignal;
}

/** `/dte`: emit, inspect and download electronic tax documents. */
export class DteResource extends Resource {
  /**
   * Emits one document (`POST /dte/emit`): folio, timbre, signature and upload to the SII in one call.
   * `estado` is `ENVIADO` (201) or `PENDIENTE` (202, the SII was unreachable; it is uploaded later).
   * Retries reuse one idempotency key, so a retried emission never consumes a second folio.
   *
   * @example
   * const dte = await client.dte.emit({
   *   tipo: 33,
   *   receptor: { rut: "76192083-9", razon_social: "Cliente SpA", giro: "Comercio", direccion: "Calle 1", comuna: "Santiago" },
   *   items: [{ nombre: "Servicio", cantidad: 1, precio: 10000 }],
   * });
   */
  emit(params: AnyEmitParams, options?: RequestOptions): Promise<WithLastResponse<Dte>> {
    return this.call({ method: "POST", path: "dte/emit", json: params, options });
  }

  /**
   * Emits up to 500 documents (`POST /dte/batch`); each result says success or error by index.
   *
   * @example
   * const { results } = await client.dte.batch({ documents: [boleta1, boleta2] });
   * const failed = results.filter((r) => !r.success);
   */
  batch(params: BatchParams, options?: RequestOptions): Promise<WithLastResponse<BatchResult>> {
    return this.call({ method: "POST", path: "dte/batch", json: params, options });
  }

  /**
   * Emits any number of documents as consecutive `POST /dte/batch` requests within the API's limits; results keep
   * the documents' positions in `documents`. Each request is retried safely under its own idempotency key. With
   * `contentKeys`, a run that was cut off — or a sheet fixed after some documents failed — can be sent again whole:
   * what was emitted is answered as it was (`replayed`), the rest is emitted.
   *
   * @example
   * const { results } = await client.dte.batchAll(ventasDelMes, { contentKeys: true, onProgress: (r, n) => console.log(`${r.length}/${n}`) });
   */
  async batchAll(documents: readonly BatchDocument[], options: BatchAllOptions & Omit<RequestOptions, "idempotencyKey"> = {}): Promise<BatchAllResult> {
    const { chunkSize, contentKeys, onProgress, ...request } = options;
    let requests = 0;
    const keyed = contentKeys ? await withContentKeys(documents) : documents;
    const results = await sendInChunks(keyed, async (chunk) => {
      requests += 1;
      return (await this.batch({ documents: chunk }, request)).results;
    }, { maxDocuments: Math.min(chunkSize ?? 500, 500), ...(onProgress ? { onProgress } : {}) });
    return { results, requests, replayed: results.filter((r) => r.replayed).length };
  }

  /**
   * What `batch` would answer for each of up to 500 documents, without emitting (`POST /dte/batch/preview`, a
   * Timbre extension): each valid document's totals, or the error the batch would give it — validation, certificate,
   * authorisation, or folios that would run out. Takes no folio, stores nothing.
   *
   * @example
   * const { results } = await client.dte.batchPreview({ documents });
   * const problems = results.filter((r) => !r.success);
   */
  batchPreview(params: BatchParams, options?: RequestOptions): Promise<WithLastResponse<BatchPreviewResult>> {
    return this.call({ method: "POST", path: "dte/batch/preview", json: params, options });
  }

  /**
   * `batchPreview` for any number of documents, in requests within the limits; results at the documents' positions.
   * `contentKeys` as for `batchAll`: then documents emitted before by `batchAll` with `contentKeys` come back
   * `replayed`, with the document they are.
   */
  async batchPreviewAll(
    documents: readonly BatchDocument[],
    options: Pick<BatchAllOptions, "chunkSize" | "contentKeys"> & { onProgress?: (results: readonly BatchPreviewItem[], total: number) => void } & RequestOptions = {},
  ): Promise<BatchPreviewResult> {
    const { chunkSize, contentKeys, onProgress, ...request } = options;
    const keyed = contentKeys ? await withContentKeys(documents) : documents;
    const results = await sendInChunks(keyed, async (chunk) => (await this.batchPreview({ documents: chunk }, request)).results, {
      maxDocuments: Math.min(chunkSize ?? 500, 500),
      ...(onProgress ? { onProgress } : {}),
    });
    return { results };
  }

  /**
   * Totals and XML of a document without emitting it (`POST /dte/preview`); consumes no folio.
   *
   * @example
   * const { totals } = await client.dte.preview(invoice);
   * console.log(totals.monto_total);
   */
  preview(params: AnyEmitParams, options?: RequestOptions): Promise<WithLastResponse<PreviewResult>> {
    return this.call({ method: "POST", path: "dte/preview", json: params, options });
  }

  /**
   * A PDF preview marked "SIN VALIDEZ TRIBUTARIA" (`POST /dte/preview?format=pdf`).
   *
   * @example
   * await writeFile("preview.pdf", await client.dte.previewPdf(invoice));
   */
  previewPdf(params: AnyEmitParams, options?: RequestOptions): Promise<Uint8Array> {
    return this.call({ method: "POST", path: "dte/preview", query: { format: "pdf" }, json: params, expect: "bytes", options });
  }

  /**
   * Lists documents, newest first (`GET /dte`); filters on the tax date, tipo, estado, folio, receptor.
   *
   * @example
   * for await (const dte of client.dte.list({ tipo: 33, desde: "2026-11-01" })) console.log(dte.folio);
   */
  list(params?: DteListParams, options?: RequestOptions): PagePromise<Dte> {
    return PagePromise.from(params, (query) => this.page<Dte>("dte", query, options));
  }

  /**
   * The period's sales by tipo with the débito fiscal — IVA of 33/39/56 less 61 — for the monthly IVA return
   * (`GET /dte/resumen`, a Timbre extension): one request whatever the number of documents. Rejected documents are
   * left out; those still waiting for the SII are included and counted in `sin_respuesta`.
   *
   * @example
   * const { tipos, debito_fiscal } = await client.dte.summary({ desde: "2026-11-01", hasta: "2026-11-30" });
   */
  summary(params: SalesSummaryParams, options?: RequestOptions): Promise<WithLastResponse<SalesSummary>> {
    return this.call({ method: "GET", path: "dte/resumen", query: { desde: params.desde, hasta: params.hasta }, options });
  }

  /**
   * The full document with items, references and history (`GET /dte/{id}`).
   *
   * @example
   * const dte = await client.dte.retrieve("dte_…");
   */
  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<DteDetail>> {
    return this.call({ method: "GET", path: `dte/${seg(id)}`, options });
  }

  /**
   * SII status (`GET /dte/{id}/status`); `refresh: true` asks the SII now.
   *
   * @example
   * const status = await client.dte.status("dte_…", { refresh: true });
   * if (status.estado === "RECHAZADO") console.error(status.sii?.errores);
   */
  status(id: string, params?: DteStatusParams, options?: RequestOptions): Promise<WithLastResponse<DteStatusResult>> {
    return this.call({ method: "GET", path: `dte/${seg(id)}/status`, query: { refresh: params?.refresh }, options });
  }

  /**
   * The receiver's acceptance or claim of a factura in the SII's registry (`GET /dte/{id}/aceptacion`, extension);
   * `refresh: true` asks the SII now. Timbre also asks on its own and reports changes as `dte.acceptance_changed`.
   *
   * @example
   * const answer = await client.dte.acceptance("dte_…", { refresh: true });
   * if (answer.estado === "RECLAMADO") await client.dte.anular("dte_…");
   */
  acceptance(id: string, params?: DteStatusParams, options?: RequestOptions): Promise<WithLastResponse<DteAcceptance>> {
    return this.call({ method: "GET", path: `dte/${seg(id)}/aceptacion`, query: { refresh: params?.refresh }, options });
  }

  /**
   * Polls `status` until the document reaches a final state (`ACEPTADO`, `ACEPTADO_CON_REPAROS`,
   * `RECHAZADO`) and returns that answer.
   *
   * @example
   * const final = await client.dte.waitForFinalStatus(dte.id, { interval: 3000 });
   * if (final.estado === "RECHAZADO") console.error(final.sii?.errores);
   */
  async waitForFinalStatus(id: string, wait: WaitOptions = {}, options?: RequestOptions): Promise<DteStatusResult> {
    const { interval = 2_000, timeout = 120_000, refresh = true, onPoll, signal } = wait;
    const deadline = Date.now() + timeout;
    for (;;) {
      const status = await this.status(id, { refresh }, { ...options, ...(signal ? { signal } : {}) });
      onPoll?.(status);
      if (FINAL_DTE_STATUSES.includes(status.estado)) return status;
      if (Date.now() + interval > deadline) {
        throw new TimbreError({
          code: "WAIT_TIMEOUT",
          message: `Document ${id} is still ${status.estado} after ${timeout} ms; check again later with dte.status().`,
          details: { estado: status.estado },
        });
      }
      await new Promise<void>((resolve) => setTimeout(resolve, interval));
      if (signal?.aborted) throw signal.reason;
    }
  }

  /**
   * Delivers an accepted document (again) now (`POST /dte/{id}/enviar`, 202): to one `email`, or to its receivers.
   * Answers its `intercambio`; 409 `CONFLICT` before the SII accepted it, 429 past 5 deliveries a day.
   *
   * @example
   * const { estado } = await client.dte.enviar("dte_…", { email: "contabilidad@cliente.cl" });
   */
  enviar(id: string, params?: DteEnviarParams, options?: RequestOptions): Promise<WithLastResponse<Intercambio>> {
    return this.call({ method: "POST", path: `dte/${seg(id)}/enviar`, json: params ?? {}, options });
  }

  /**
   * The printable PDF (`GET /dte/{id}/pdf`).
   *
   * @example
   * await writeFile("factura.pdf", await client.dte.pdf("dte_…", { formato: "carta", cedible: true }));
   */
  pdf(id: string, params?: DtePdfParams, options?: RequestOptions): Promise<Uint8Array> {
    return this.call({ method: "GET", path: `dte/${seg(id)}/pdf`, query: { ...params }, expect: "bytes", options });
  }

  /**
   * The exact signed XML bytes (ISO-8859-1) as stored (`GET /dte/{id}/xml`); `envio: true` for the envelope.
   *
   * @example
   * await writeFile("dte.xml", await client.dte.xml("dte_…"));
   */
  xml(id: string, params?: DteXmlParams, options?: RequestOptions): Promise<Uint8Array> {
    return this.call({ method: "GET", path: `dte/${seg(id)}/xml`, query: { ...params }, expect: "bytes", options });
  }

  /**
   * Issues the credit note (61) that annuls a document (`POST /dte/{id}/anular`), copying its receptor and items;
   * returns the new DTE. `params` sets the reference's reason, the note's date or receptor fields to replace.
   *
   * @example
   * const nota = await client.dte.anular("dte_…");
   * await client.dte.anular("dte_…", { razon: "Error en el precio" }, { idempotencyKey: "anula-F33-120" });
   */
  anular(id: string, params: AnularParams = {}, options?: RequestOptions): Promise<WithLastResponse<Dte>> {
    // Before 0.2 the second argument was the request options: refuse them here rather than drop an idempotency key.
    const misplaced = Object.keys(params).filter((k) => REQUEST_OPTION_KEYS.has(k));
    if (misplaced.length > 0) return Promise.reject(new TypeError(`dte.anular(id, params, options): ${misplaced.join(", ")} belongs in the third argument`));
    return this.call({ method: "POST", path: `dte/${seg(id)}/anular`, json: params, options });
  }
}

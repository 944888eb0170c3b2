import { PagePromise } from "../pagination.js";
import type { RequestOptions } from "../transport.js";
import type {
  ReceivedAcceptParams,
  ReceivedClaimParams,
  ReceivedDocument,
  ReceivedImportParams,
  ReceivedImportResult,
  ReceivedInboxItem,
  ReceivedListParams,
  ReceivedPdfParams,
  WithLastResponse,
} from "../types.js";
import { Resource, seg } from "./resource.js";

/** `/received`: documents suppliers sent the business, verified, and its answers to them (API.md §12). */
export class Received extends Resource {
  /**
   * Lists received documents, newest first (`GET /received`); `for await` walks every page.
   *
   * @example
   * for await (const doc of client.received.list({ estado: "SIN_RESPUESTA" })) console.log(doc.folio, doc.plazo_hasta);
   */
  list(params?: ReceivedListParams, options?: RequestOptions): PagePromise<ReceivedDocument> {
    return PagePromise.from(params, (query) => this.page<ReceivedDocument>("received", query, options));
  }

  /**
   * Messages that reached the business's intercambio address (or were uploaded) but could not be imported
   * (`GET /received/inbox`, kept 30 days).
   */
  inbox(params?: Pick<ReceivedListParams, "page" | "limit">, options?: RequestOptions): PagePromise<ReceivedInboxItem> {
    return PagePromise.from(params, (query) => this.page<ReceivedInboxItem>("received/inbox", query, options));
  }

  /**
   * One received document (`GET /received/{id}`).
   *
   * @example
   * const doc = await client.received.retrieve("rcv_…");
   */
  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<ReceivedDocument>> {
    return this.call({ method: "GET", path: `received/${seg(id)}`, options });
  }

  /** The DTE exactly as received (`GET /received/{id}/xml`). */
  xml(id: string, options?: RequestOptions): Promise<Uint8Array> {
    return this.call({ method: "GET", path: `received/${seg(id)}/xml`, expect: "bytes", options });
  }

  /**
   * The received DTE printed (`GET /received/{id}/pdf`).
   *
   * @example
   * await writeFile("recibida.pdf", await client.received.pdf("rcv_…", { formato: "carta" }));
   */
  pdf(id: string, params?: ReceivedPdfParams, options?: RequestOptions): Promise<Uint8Array> {
    return this.call({ method: "GET", path: `received/${seg(id)}/pdf`, query: { ...params }, expect: "bytes", options });
  }

  /**
   * Imports an `EnvioDTE` a supplier sent (`POST /received`): bytes go as a file, byte for byte; text as JSON.
   * A bad envelope is 422 `ENVELOPE_INVALID` and nothing is kept.
   *
   * @example
   * const { results } = await client.received.import({ xml: await readFile("envio.xml"), reply_to: "dte@proveedor.cl" });
   */
  import(params: ReceivedImportParams, options?: RequestOptions): Promise<WithLastResponse<ReceivedImportResult>> {
    if (typeof params.xml === "string") return this.call({ method: "POST", path: "received", json: params, options });
    const form = new FormData();
    form.append("file", new Blob([params.xml as Uint8Array<ArrayBuffer>], { type: "application/xml" }), "envio.xml");
    if (params.reply_to !== undefined) form.append("reply_to", params.reply_to);
    return this.call({ method: "POST", path: "received", body: form, options });
  }

  /**
   * Accepts the document in the SII's registry (ACD; with `recibo_mercaderias: true` also ERM) and answers the emisor
   * (`POST /received/{id}/aceptar`). 409 `CONFLICT` when already decided or past `plazo_hasta`.
   *
   * @example
   * await client.received.accept("rcv_…", { recibo_mercaderias: true, recinto: "Bodega central" });
   */
  accept(id: string, params?: ReceivedAcceptParams, options?: RequestOptions): Promise<WithLastResponse<ReceivedDocument>> {
    return this.call({ method: "POST", path: `received/${seg(id)}/aceptar`, json: params ?? {}, options });
  }

  /**
   * Claims the document in the SII's registry (`RCD`, `RFP`, `RFT`) and answers the emisor
   * (`POST /received/{id}/reclamar`).
   *
   * @example
   * await client.received.claim("rcv_…", { accion: "RCD", motivo: "Precio distinto al acordado" });
   */
  claim(id: string, params: ReceivedClaimParams, options?: RequestOptions): Promise<WithLastResponse<ReceivedDocument>> {
    return this.call({ method: "POST", path: `received/${seg(id)}/reclamar`, json: params, options });
  }
}

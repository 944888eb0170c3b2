/**
 * The SDK's names for the API's request and response shapes. They are aliases of the types openapi-typescript
 * generates from the server's OpenAPI document (`generated/openapi.ts`, checked against the server in the tests),
 * so they cannot drift from what the server accepts and answers. Written here only: what the document cannot
 * state (the webhook events' union by kind, the preview's totals, upload helpers' parameters).
 * Receivers must ignore unknown fields: every object may carry more than it declares.
 */
import type { operations } from "./generated/openapi.js";

type JsonOf<T> = T extends { content: { "application/json": infer B } } ? B : never;
/** The JSON request body of an operation. */
type Body<K extends keyof operations> = JsonOf<NonNullable<operations[K]["requestBody"]>>;
/** The `data` of an operation's JSON answer with status `S`. */
type Data<K extends keyof operations, S extends keyof operations[K]["responses"]> = JsonOf<operations[K]["responses"][S]> extends { data: infer D } ? D : never;
/** An operation's query parameters. */
type Query<K extends keyof operations> = NonNullable<operations[K]["parameters"]["query"]>;
type ItemOf<T> = T extends ReadonlyArray<infer I> ? I : never;

// ── Shared ────────────────────────────────────────────────────────────────────────────────

/** `test` (SII certification or the local sandbox) or `live` (SII production). */
export type Environment = Dte["environment"];

/** ISO 8601 UTC timestamp with milliseconds, e.g. `2026-11-22T14:03:07.123Z`. */
export type Timestamp = string;

/** Civil date `YYYY-MM-DD` (Chile). */
export type DateString = string;

/** Pagination block of every list response (API §6.9). */
export type Pagination = JsonOf<operations["getV1Dte"]["responses"][200]>["pagination"];

/** Query of every list endpoint. `limit` is 1–100. */
export type ListParams = Pick<Query<"getV1Dte">, "page" | "limit">;

/** One page of a list: what `await client.x.list()` resolves to. */
export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

/** Permissions of an API key (sessions hold all); `*` is shorthand for all of them. The list: `PERMISSIONS`. */
export type Permission = ItemOf<Body<"postV1Tokens">["permissions"]>;

/** What a successful call's HTTP answer said besides its body (as stripe-node's `lastResponse`). */
export interface LastResponse {
  /** The answer's `Request-Id` (`req_…`): quote it when asking about this call. */
  requestId: string | undefined;
  /** True when this is the stored answer to an earlier call with the same idempotency key: nothing was done again. */
  idempotentReplayed: boolean;
  status: number;
  headers: Headers;
}

/** An answer's `data` with `lastResponse` (not enumerable: JSON and equality see the data only). */
export type WithLastResponse<T> = T & { readonly lastResponse: LastResponse };

/** Error envelope body (`error` of `{ success: false, error }`). */
export interface ApiErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  request_id?: string;
}

// ── Auth (§6.1) ───────────────────────────────────────────────────────────────────────────

export type RegisterParams = Body<"postV1AuthRegister">;
export type LoginParams = Body<"postV1AuthLogin">;
export type RefreshParams = Body<"postV1AuthRefresh">;
/** Answer of register, login and refresh. */
export type Session = Data<"postV1AuthRegister", 201>;
export type User = Session["user"];
export type Me = Data<"getV1AuthMe", 200>;

// ── Businesses (§6.2) ─────────────────────────────────────────────────────────────────────

export type Business = Data<"getV1BusinessesById", 200>;
export type Resolution = NonNullable<Business["resolucion"]>;
export type CertificateSummary = NonNullable<Business["certificate"]>;
export type BusinessCreateParams = Body<"postV1Businesses">;
/** Partial update; `rut` cannot change. */
export type BusinessUpdateParams = Omit<Body<"putV1BusinessesById">, "rut">;
export type DeletedBusiness = Data<"deleteV1BusinessesById", 200>;
export type WebhookSecret = Data<"postV1BusinessesByIdWebhook-secret", 200>;

/** `businesses.uploadCertificate`: sent as multipart (`file`, `password`). */
export interface CertificateUploadParams {
  /** Business id (`biz_…`). */
  id: string;
  /** The PKCS#12 (.p12/.pfx) bytes. */
  file: Uint8Array;
  password: string;
  /** File name sent in the multipart body. */
  filename?: string;
}

// ── Numerations (§6.4) ────────────────────────────────────────────────────────────────────

export type Numeration = Data<"getV1NumerationsById", 200>;
export type NumerationStatus = Numeration["estado"];
export type NumerationListParams = Query<"getV1BusinessesByIdNumerations">;
export type SandboxNumerationCreateParams = Body<"postV1SandboxNumerations">;

/** `numerations.create`: the CAF file as received from the SII. */
export interface NumerationCreateParams {
  /** Bytes (sent as multipart, the exact ISO-8859-1 bytes kept) or already-decoded text (sent as JSON `{ caf_xml }`). */
  file: Uint8Array | string;
  filename?: string;
}

// ── DTE (§6.3) ────────────────────────────────────────────────────────────────────────────

/** Body of `POST /dte/emit` and `/dte/preview`, and each document of a batch. */
export type AnyEmitParams = Body<"postV1DteEmit">;
/** The body shape of `AnyEmitParams` whose `tipo` may be `T`. */
type ShapeOf<T extends number> = AnyEmitParams extends infer U ? (U extends { tipo: infer K } ? (T extends K ? U : never) : never) : never;
/** The body of the classic tipos (33, 34, 39, 41, 52, 56, 61). */
export type EmitParams = ShapeOf<33>;
/** A factura de compra (46), or a 56/61 on one: each line retains the seller's IVA (API.md §13). */
export type PurchaseEmitParams = ShapeOf<46>;
/** A liquidación-factura (43): the sales an agent settles for its principal, and its commissions. */
export type LiquidationEmitParams = ShapeOf<43>;
/** An export document (110, 111, 112): a foreign buyer, a currency by the SII's name, customs codes. */
export type ExportEmitParams = ShapeOf<110>;
export type Dte = Data<"postV1DteEmit", 201>;
/** The document types the server emits (API.md §6.3, §13). */
export type TipoDte = Dte["tipo"];
export type DteStatus = Dte["estado"];

/** States after which `estado` never changes. */
export const FINAL_DTE_STATUSES: readonly DteStatus[] = ["ACEPTADO", "ACEPTADO_CON_REPAROS", "RECHAZADO"];

/** The receptor of every tipo but the exports (which name a foreign buyer: `ExportReceptor`). */
export type Receptor = EmitParams["receptor"];
/** The foreign buyer of an export document (110–112); its RUT is 55555555-5. */
export type ExportReceptor = ExportEmitParams["receptor"];
export type DteItem = ItemOf<EmitParams["items"]>;
export type Referencia = NonNullable<EmitParams["referencia"]>;
/** 1 anula, 2 corrige texto, 3 corrige montos. */
export type CodigoReferencia = NonNullable<Referencia["codigo"]>;
export type Traslado = NonNullable<EmitParams["traslado"]>;
export type Transporte = NonNullable<EmitParams["transporte"]>;

type DteDetailData = Data<"getV1DteById", 200>;
/**
 * `GET /dte/{id}`. The document declares `items` and `referencias` as open objects (the stored lines are answered as
 * kept); here they are the request's lines with their computed `monto`, and the request's references.
 */
export type DteDetail = Omit<DteDetailData, "items" | "referencias"> & { items: Array<DteItem & { monto: number }>; referencias: Referencia[] };
export type HistoryEntry = ItemOf<DteDetailData["historial"]>;
export type AdditionalTax = ItemOf<Data<"getV1DteResumen", 200>["impuestos_adicionales"]>;

export type SalesSummaryParams = Query<"getV1DteResumen">;
/** `GET /dte/resumen`: a period's sales by tipo. */
export type SalesSummary = Data<"getV1DteResumen", 200>;
/** One tipo's documents in a {@link SalesSummary} (rejected ones not counted). */
export type TipoSummary = ItemOf<SalesSummary["tipos"]>;

export type DteListParams = Query<"getV1Dte">;
export type DteStatusParams = Query<"getV1DteByIdStatus">;
export type DtePdfParams = Query<"getV1DteByIdPdf">;
export type DteXmlParams = Query<"getV1DteByIdXml">;

export type DteStatusResult = Data<"getV1DteByIdStatus", 200>;
export type SiiError = ItemOf<DteStatusResult["sii"]["errores"]>;

/** `GET /dte/{id}/aceptacion` (extension). */
export type DteAcceptance = Data<"getV1DteByIdAceptacion", 200>;
/** The receiver's answer to a factura in the SII's registry (Ley 19.983): `NO_APLICA`, `SIN_CONSULTAR`, `SIN_RESPUESTA`, `ACEPTADO`, `RECLAMADO`, `ACEPTADO_TACITO`. */
export type AcceptanceStatus = DteAcceptance["estado"];
/** One event of the registry: ACD, ERM, RCD, RFP, RFT, or NCA/ENC (a credit note referring to the factura). */
export type AcceptanceEvent = ItemOf<DteAcceptance["eventos"]>;

/** Optional body of `POST /dte/{id}/anular`. */
export type AnularParams = Body<"postV1DteByIdAnular">;

/**
 * A document of a batch: an emission request, optionally with its own idempotency key (a Timbre extension). Sent
 * again within 24 h under the same key, the document is answered as it was emitted (`replayed: true`) and takes no
 * folio; it shares the key space of `emit`'s `idempotencyKey`. `withContentKeys` makes keys from the documents.
 */
export type BatchDocument = AnyEmitParams & { idempotency_key?: string };

export interface BatchParams {
  /** 1–500 documents. */
  documents: BatchDocument[];
}

export type BatchResult = Data<"postV1DteBatch", 200>;
export type BatchResultItem = ItemOf<BatchResult["results"]>;

type BatchPreviewData = Data<"postV1DteBatchPreview", 200>;
type BatchPreviewItemData = ItemOf<BatchPreviewData["results"]>;
/** One document of `dte.batchPreview`: its totals, or the error the batch would give it. */
export type BatchPreviewItem = Omit<BatchPreviewItemData, "data"> & { data?: Omit<NonNullable<BatchPreviewItemData["data"]>, "totals"> & { totals: Totals } };
export interface BatchPreviewResult {
  results: BatchPreviewItem[];
}

/** The totals of a preview (the document declares them as an open object). */
export interface Totals {
  monto_neto: number;
  monto_exento: number;
  monto_iva: number;
  monto_total: number;
  tasa_iva: number;
  /** Whether taxable line amounts include IVA. */
  precios_brutos: boolean;
  /** The global discount: its percentage, the pesos it took and the bucket it applied to; null without one. */
  descuento_global: { porcentaje: number; monto: number; sobre: "afecto" | "exento" } | null;
  /** Extension: the additional taxes by code (empty without any). */
  impuestos_adicionales: AdditionalTax[];
  /** Per line: `cantidad × precio`, its discount, the line amount, and whether it is exempt. */
  items: Array<{ monto_bruto: number; descuento_monto: number; monto: number; exento: boolean }>;
  [key: string]: unknown;
}

/** `POST /dte/preview`: the totals and the unsigned XML. */
export type PreviewResult = Omit<Data<"postV1DtePreview", 200>, "totals"> & { totals: Totals };

// ── Tokens (§6.5) ─────────────────────────────────────────────────────────────────────────

export type ApiKey = ItemOf<Data<"getV1Tokens", 200>>;
/** The creation answer: the only time the full key is shown. */
export type CreatedApiKey = Data<"postV1Tokens", 201>;
export type TokenCreateParams = Body<"postV1Tokens">;
export type RevokedApiKey = Data<"deleteV1TokensById", 200>;

// ── Delivery and received documents (§11, §12) ─────────────────────────────────────────────

/** `intercambio` of a document: its delivery to the receiver and the receiver's answers (API.md §11). */
export type Intercambio = Data<"postV1DteByIdEnviar", 202>;
/** `POST /dte/{id}/enviar`: `email` for one address, or nothing for the document's receivers. */
export type DteEnviarParams = NonNullable<Body<"postV1DteByIdEnviar">>;

/** An issuer of the SII's list of authorised electronic issuers (`GET /issuers/{rut}`, API.md §14). */
export type Issuer = Data<"getV1IssuersByRut", 200>;

/** A document a supplier sent the business (`rcv_…`). */
export type ReceivedDocument = Data<"getV1ReceivedById", 200>;
export type ReceivedListParams = Query<"getV1Received">;
/** A message that reached the business but could not be imported. */
export type ReceivedInboxItem = ItemOf<Data<"getV1ReceivedInbox", 200>>;
export type ReceivedPdfParams = Query<"getV1ReceivedByIdPdf">;
/** `POST /received`: one result per DTE of the envelope. */
export type ReceivedImportResult = Data<"postV1Received", 201>;
/** An envelope to import: its text or its exact bytes (sent as a file, byte for byte), and where answers go. */
export interface ReceivedImportParams {
  xml: string | Uint8Array;
  reply_to?: string;
}
export type ReceivedAcceptParams = NonNullable<Body<"postV1ReceivedByIdAceptar">>;
export type ReceivedClaimParams = Body<"postV1ReceivedByIdReclamar">;

// ── Events and webhooks (§6.6) ────────────────────────────────────────────────────────────

/** `POST /events/{id}/resend`: the delivery attempt now due. */
export type EventResend = Data<"postV1EventsByIdResend", 202>;

export type EventKind = NonNullable<Query<"getV1Events">["event"]>;

export interface DteStatusChangedData {
  dte_id: string;
  tipo: TipoDte;
  folio: number;
  old_status: DteStatus | null;
  new_status: DteStatus;
  timestamp: Timestamp;
}

export interface DteAcceptanceChangedData {
  dte_id: string;
  tipo: TipoDte;
  folio: number;
  old_status: AcceptanceStatus;
  new_status: AcceptanceStatus;
  /** The registry's events not reported before. */
  eventos: AcceptanceEvent[];
  timestamp: Timestamp;
}

/** A receiver's XML answer to one of the business's documents (API.md §11), as in `intercambio.respuestas`. */
export interface ReceiverAnswer {
  tipo: "recepcion" | "resultado" | "recibo";
  /** The answer's integer code (EstadoRecepDTE, EstadoDTE; 0 for a recibo). */
  codigo: number;
  glosa: string;
  at: Timestamp;
}

export interface DteReceiverAnsweredData {
  dte_id: string;
  tipo: TipoDte;
  folio: number;
  respuesta: ReceiverAnswer;
}

interface EventBase<K extends string, D> {
  id: string;
  event: K;
  environment: Environment;
  business_id: string;
  created_at: Timestamp;
  data: D;
}

export type DteStatusChangedEvent = EventBase<"dte.status_changed", DteStatusChangedData>;
export type DteAcceptanceChangedEvent = EventBase<"dte.acceptance_changed", DteAcceptanceChangedData>;
export type NumerationLowEvent = EventBase<"numeration.low", Record<string, unknown>>;
export type NumerationExpiringEvent = EventBase<"numeration.expiring", Record<string, unknown>>;
export type CertificateExpiringEvent = EventBase<"certificate.expiring", Record<string, unknown>>;
export type DteReceiverAnsweredEvent = EventBase<"dte.receiver_answered", DteReceiverAnsweredData>;

/** The body delivered to webhook receivers (and listed by `GET /events`). */
export type WebhookEvent =
  | DteStatusChangedEvent
  | DteAcceptanceChangedEvent
  | NumerationLowEvent
  | NumerationExpiringEvent
  | CertificateExpiringEvent
  | DteReceiverAnsweredEvent;

export type Delivery = ItemOf<ItemOf<Data<"getV1Events", 200>>["deliveries"]>;

export type EventWithDeliveries = WebhookEvent & { deliveries: Delivery[] };

export type EventListParams = Query<"getV1Events">;

// ── Utilities (§6.7) ──────────────────────────────────────────────────────────────────────

export type Health = Data<"getV1Health", 200>;
export type RutValidation = Data<"postV1RutValidate", 200>;

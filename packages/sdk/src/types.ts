/**
 * Request and response shapes of the Timbre HTTP API v1, written once from the contract
 * (`design/API.md`). Field names are the wire names (snake_case, Spanish tax vocabulary).
 * Receivers must ignore unknown fields, so every object here may carry more than it declares.
 */

// ── Shared ────────────────────────────────────────────────────────────────────────────────

/** `test` (SII certification or the local sandbox) or `live` (SII production). */
export type Environment = "test" | "live";

/** ISO 8601 UTC timestamp with milliseconds, e.g. `2026-11-22T14:03:07.123Z`. */
export type Timestamp = string;

/** Civil date `YYYY-MM-DD` (Chile). */
export type DateString = string;

/** Pagination block of every list response (API §6.9). */
export interface Pagination {
  page: number;
  limit: number;
  total: number;
  total_pages: number;
}

/** Query of every list endpoint. `limit` is 1–100. */
export interface ListParams {
  page?: number;
  limit?: number;
}

/** One page of a list: what `await client.x.list()` resolves to. */
export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

/** Permissions of an API key (sessions hold all). `*` is shorthand for all of them. */
export type Permission =
  | "dte:read"
  | "dte:write"
  | "businesses:read"
  | "businesses:write"
  | "numerations:read"
  | "numerations:write"
  | "tokens:read"
  | "tokens:write"
  | "*";

/** Error envelope body (`error` of `{ success: false, error }`). */
export interface ApiErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  request_id?: string;
}

// ── Auth (§6.1) ───────────────────────────────────────────────────────────────────────────

export interface User {
  id: string;
  email: string;
  nombre: string;
  created_at: Timestamp;
}

export interface RegisterParams {
  email: string;
  /** At least 10 characters. */
  password: string;
  nombre: string;
}

export interface LoginParams {
  email: string;
  password: string;
}

export interface RefreshParams {
  refresh_token: string;
}

/** Answer of register, login and refresh. */
export interface Session {
  user: User;
  access_token: string;
  refresh_token: string;
  token_type: "Bearer";
  /** Seconds until `access_token` expires. */
  expires_in: number;
}

export interface Me {
  user: User;
  auth: {
    type: "api_key" | "session";
    key?: {
      id: string;
      name: string;
      environment: Environment;
      permissions: Permission[];
      business_id: string;
    };
  };
}

// ── Businesses (§6.2) ─────────────────────────────────────────────────────────────────────

export interface Resolution {
  numero: number;
  fecha: DateString;
}

export interface CertificateSummary {
  rut_titular: string | null;
  nombre_titular: string;
  emisor: string;
  serial: string;
  valid_from: Timestamp;
  valid_to: Timestamp;
  fingerprint_sha256: string;
}

export interface Business {
  id: string;
  rut: string;
  razon_social: string;
  giro: string;
  /** 1 to 4 economic activity codes. */
  acteco: number[];
  direccion: string;
  comuna: string;
  ciudad?: string | null;
  email?: string | null;
  telefono?: string | null;
  /** The SII's code of the branch (`CdgSIISucur`), as digits. */
  sucursal_sii?: string | null;
  /** The SII unit printed under the PDF's box ("SANTIAGO ORIENTE"); the comuna is printed when null. */
  unidad_sii?: string | null;
  resolucion: Resolution | null;
  webhook_url: string | null;
  certificate: CertificateSummary | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Only in the response that first sets `webhook_url`, once. */
  webhook_secret?: string;
}

export interface BusinessCreateParams {
  rut: string;
  razon_social: string;
  giro: string;
  acteco: number[];
  direccion: string;
  comuna: string;
  ciudad?: string;
  email?: string;
  telefono?: string;
  /** The SII's code of the branch (`CdgSIISucur`): 1–9 digits, as a number or a string. */
  sucursal_sii?: number | string | null;
  /** The SII unit of the issuer's jurisdiction, printed under the PDF's box (≤ 40 characters). */
  unidad_sii?: string | null;
  resolucion?: Resolution | null;
  webhook_url?: string | null;
}

/** Partial update; `rut` cannot change. */
export type BusinessUpdateParams = Partial<Omit<BusinessCreateParams, "rut">>;

export interface DeletedBusiness {
  id: string;
  deleted: true;
}

export interface CertificateUploadParams {
  /** Business id (`biz_…`). */
  id: string;
  /** The PKCS#12 (.p12/.pfx) bytes. */
  file: Uint8Array;
  password: string;
  /** File name sent in the multipart body. */
  filename?: string;
}

export interface WebhookSecret {
  webhook_secret: string;
}

/** `POST /events/{id}/resend`: the delivery attempt now due. */
export interface EventResend {
  /** The event's id. */
  id: string;
  /** The attempt number (a retry already waiting is brought forward instead of adding one). */
  attempt: number;
  due_at: string;
}

// ── Numerations (§6.4) ────────────────────────────────────────────────────────────────────

export type NumerationStatus = "activa" | "agotada" | "vencida";

export interface Numeration {
  id: string;
  business_id: string;
  tipo: TipoDte;
  desde: number;
  hasta: number;
  siguiente_folio: number;
  disponibles: number;
  usados: number;
  fecha_autorizacion: DateString;
  vence_el: DateString | null;
  environment: Environment;
  estado: NumerationStatus;
  created_at: Timestamp;
}

export interface NumerationListParams extends ListParams {
  tipo?: TipoDte;
  estado?: NumerationStatus;
}

export interface NumerationCreateParams {
  /**
   * The CAF file as received from the SII: bytes (sent as multipart, exact ISO-8859-1 bytes kept)
   * or already-decoded text (sent as JSON `{ caf_xml }`).
   */
  file: Uint8Array | string;
  filename?: string;
}

export interface SandboxNumerationCreateParams {
  tipo: TipoDte;
  /** 1–100000 folios. */
  cantidad: number;
}

// ── DTE (§6.3) ────────────────────────────────────────────────────────────────────────────

/** Supported document types: 33 factura, 34 exenta, 39 boleta, 41 boleta exenta, 52 guía, 56 ND, 61 NC. */
export type TipoDte = 33 | 34 | 39 | 41 | 52 | 56 | 61;

export type DteStatus = "PENDIENTE" | "ENVIADO" | "ACEPTADO" | "ACEPTADO_CON_REPAROS" | "RECHAZADO";

/** States after which `estado` never changes. */
export const FINAL_DTE_STATUSES: readonly DteStatus[] = ["ACEPTADO", "ACEPTADO_CON_REPAROS", "RECHAZADO"];

export interface Receptor {
  rut: string;
  razon_social: string;
  giro?: string;
  direccion?: string;
  comuna?: string;
  ciudad?: string;
  email?: string;
  contacto?: string;
}

export interface DteItem {
  nombre: string;
  cantidad: number;
  /** Net unit price (gross when `precios_brutos`). Up to 6 decimals. */
  precio: number;
  unidad?: string;
  descuento_porcentaje?: number;
  descripcion?: string;
  codigo?: string;
  exento?: boolean;
  /**
   * Extension: the line's additional tax (`CodImpAdic`), on facturas 33 and their notes, with net prices and no global
   * discount: 27 soft drinks 10 %, 271 sugary drinks 18 %, 24 spirits 31.5 %, 25 wine and 26 beer 20.5 %, 18 meat
   * 5 %, 19 flour 12 %, 23 art. 37 15 %.
   */
  impuesto_adicional?: number;
}

/** One additional tax of a document: the sum of its lines (`base`) and the tax on it, part of `monto_total`. */
export interface AdditionalTax {
  codigo: number;
  /** Rate in percent. */
  tasa: number;
  base: number;
  monto: number;
}

/** 1 anula, 2 corrige texto, 3 corrige montos. */
export type CodigoReferencia = 1 | 2 | 3;

export interface Referencia {
  tipo_doc: number | string;
  folio: number | string;
  fecha: DateString;
  razon: string;
  /**
   * Against a document issued with Timbre it defaults to 1 when the note's total equals the document's, else 3;
   * against a document issued elsewhere (before the business came to Timbre, or on paper) it is required.
   */
  codigo?: CodigoReferencia;
}

/**
 * Extension: why the goods of a guía de despacho (52) move (`IndTraslado`): 1 operación constituye venta, 2 ventas
 * por efectuar, 3 consignaciones, 4 entrega gratuita, 5 traslados internos, 6 otros traslados no venta, 7 guía de
 * devolución, 8 traslado para exportación, 9 venta para exportación; and who dispatches (`TipoDespacho`): 1 the
 * receptor, 2 the issuer to the client's premises, 3 the issuer to other premises.
 */
export interface Traslado {
  tipo: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  despacho?: 1 | 2 | 3;
}

/** Extension: who carries the goods of a guía de despacho (52), and where to. */
export interface Transporte {
  patente?: string;
  rut_transportista?: string;
  chofer?: { rut: string; nombre: string };
  direccion_destino?: string;
  comuna_destino?: string;
  ciudad_destino?: string;
}

/** Body of `POST /dte/emit` and `/dte/preview`, and each document of a batch. */
export interface EmitParams {
  tipo: TipoDte;
  fecha?: DateString;
  receptor: Receptor;
  items: DteItem[];
  /** Items' `precio` include IVA. Default false: prices are net (the API's rule; `@timbre/sdk/csv` sets true on boletas it reads with the cell empty). */
  precios_brutos?: boolean;
  referencia?: Referencia;
  referencias?: Referencia[];
  forma_pago?: 1 | 2 | 3;
  descuento_global_porcentaje?: number;
  observaciones?: string;
  /** Required on a guía de despacho (52), not allowed on other tipos. */
  traslado?: Traslado;
  /** Guía de despacho (52) only. */
  transporte?: Transporte;
}

/** A factura de compra (46), or a 56/61 on one: a line retains the seller's IVA (API.md §13). */
export interface PurchaseEmitParams extends Omit<EmitParams, "tipo" | "items" | "precios_brutos" | "traslado" | "transporte"> {
  tipo: 46 | 56 | 61;
  items: Array<Omit<DteItem, "impuesto_adicional"> & {
    /** `ImptoReten` code: 15 IVA retenido total (the default), partial codes 30, 32, 33, 34, 36, 37, 48…; null retains nothing. */
    retencion?: number | null;
  }>;
}

/** A liquidación-factura (43): the sales an agent settles for the receptor (its principal), and its commissions. */
export interface LiquidationEmitParams {
  tipo: 43;
  fecha?: DateString;
  receptor: Receptor;
  liquidacion: {
    documentos: Array<{ tipo_doc_liq: number; nombre: string; descripcion?: string; cantidad?: number; unidad?: string; monto: number; exento?: boolean }>;
    comisiones?: Array<{ tipo: "C" | "O"; descripcion: string; tasa_comision?: number; monto_neto: number; monto_exento?: number }>;
  };
  forma_pago?: 1 | 2 | 3;
  referencia?: Referencia;
  referencias?: Referencia[];
}

/** An export document (110 factura, 111 débito, 112 crédito): a foreign buyer, a currency by the SII's name, customs codes. */
export interface ExportEmitParams {
  tipo: 110 | 111 | 112;
  fecha?: DateString;
  receptor: { razon_social: string; extranjero?: { num_id?: string; nacionalidad?: number }; giro?: string; direccion?: string; ciudad?: string; email?: string };
  items: Array<{ nombre: string; cantidad: number | string; precio: number | string; unidad?: string; descripcion?: string; codigo?: string; descuento_porcentaje?: number; recargo_porcentaje?: number }>;
  /** The SII's name (`"DOLAR USA"`, `"EURO"`…); an ISO code is refused. */
  moneda: string;
  /** Pesos per unit of `moneda`. */
  tipo_cambio: number | string;
  forma_pago_exportacion?: number;
  fecha_cancelacion?: DateString;
  exportacion?: {
    modalidad_venta?: number; clausula_venta?: number; total_clausula?: number | string; via_transporte?: number; nombre_transporte?: string;
    puerto_embarque?: number; puerto_desembarque?: number; tara?: number | string; unidad_tara?: number; peso_bruto?: number | string;
    unidad_peso_bruto?: number; peso_neto?: number | string; unidad_peso_neto?: number; total_items?: number;
    bultos?: Array<{ tipo: number; cantidad: number; marcas: string; id_container?: string; sello?: string; emisor_sello?: string }>;
    flete?: number | string; seguro?: number | string; pais_receptor?: number; pais_destino?: number; indicador_servicio?: 3 | 4 | 5;
  };
  referencia?: Referencia;
  referencias?: Referencia[];
}

/** The body of any tipo. */
export type AnyEmitParams = EmitParams | PurchaseEmitParams | LiquidationEmitParams | ExportEmitParams;

export interface Dte {
  id: string;
  tipo: TipoDte;
  folio: number;
  /** UTC timestamp of the emission itself. */
  fecha_emision: Timestamp;
  /** The tax date (`FchEmis`). */
  fecha: DateString;
  receptor: { rut: string; razon_social: string };
  monto_neto: number;
  monto_exento: number;
  monto_iva: number;
  /** Pesos; an export's in its currency (in lists: its pesos). */
  monto_total: number;
  /** 46: the IVA retained, and the rest. */
  monto_iva_retenido?: number;
  monto_iva_no_retenido?: number;
  /** 110–112: the currency, pesos per unit and the total in pesos. */
  moneda?: string;
  tipo_cambio?: number;
  monto_total_pesos?: number;
  estado: DteStatus;
  track_id: string | null;
  pdf_url: string;
  xml_url: string;
  environment: Environment;
  created_at: Timestamp;
}

export interface HistoryEntry {
  estado: DteStatus;
  at: Timestamp;
  detalle?: string;
}

export interface DteDetail extends Omit<Dte, "receptor"> {
  /** The whole receptor as emitted (the list and the emission answer carry only `rut` and `razon_social`). */
  receptor: Receptor;
  /** Whether the line prices include IVA, as applied (always false on exempt tipos 34 and 41). */
  precios_brutos: boolean;
  forma_pago?: 1 | 2 | 3;
  descuento_global_porcentaje?: number;
  observaciones?: string;
  /** Extension: present when lines carry additional taxes. */
  impuestos_adicionales?: AdditionalTax[];
  /** Guía de despacho (52). */
  traslado?: Traslado;
  transporte?: Transporte;
  items: Array<DteItem & { monto: number }>;
  referencias: Referencia[];
  historial: HistoryEntry[];
}

export interface SalesSummaryParams {
  /** First tax date of the period, inclusive. */
  desde: DateString;
  /** Last tax date of the period, inclusive. */
  hasta: DateString;
}

/** One tipo's documents in a {@link SalesSummary} (rejected ones not counted). */
export interface TipoSummary {
  tipo: TipoDte;
  documentos: number;
  monto_neto: number;
  monto_exento: number;
  monto_iva: number;
  monto_total: number;
}

/** `GET /dte/resumen`: a period's sales by tipo. */
export interface SalesSummary {
  desde: DateString;
  hasta: DateString;
  tipos: TipoSummary[];
  /** IVA of facturas, boletas and debit notes less that of credit notes. */
  debito_fiscal: number;
  /** Totals of every tipo, credit notes subtracted. */
  total_neto_de_notas: number;
  /** Extension: the additional taxes (ILA…) by code and rate, credit notes subtracted; empty without any. */
  impuestos_adicionales: AdditionalTax[];
  /** Documents the SII rejected, left out of every figure. */
  rechazados: number;
  /** Documents included while the SII has not answered (PENDIENTE, ENVIADO): the figures may still move. */
  sin_respuesta: number;
}

export interface DteListParams extends ListParams {
  tipo?: TipoDte;
  /** Inclusive, on the tax date `fecha`. */
  desde?: DateString;
  hasta?: DateString;
  estado?: DteStatus;
  folio?: number;
  receptor_rut?: string;
  /** Extension: the receiver's answer to a factura as last asked, e.g. `RECLAMADO` (the facturas to annul). */
  aceptacion?: Exclude<AcceptanceStatus, "NO_APLICA" | "SIN_CONSULTAR">;
}

export interface SiiError {
  codigo: string;
  descripcion: string;
  ayuda?: string;
}

export interface DteStatusResult {
  id: string;
  estado: DteStatus;
  track_id: string | null;
  sii: {
    estado_envio: string | null;
    glosa: string | null;
    aceptados: number | null;
    rechazados: number | null;
    reparos: number | null;
    errores: SiiError[];
    consultado_at: Timestamp | null;
  } | null;
  historial: HistoryEntry[];
}

/** Extension: the receiver's answer to a factura in the SII's registry of acceptances and claims (Ley 19.983). */
export type AcceptanceStatus =
  /** Not in the registry: boletas, notes, rejected documents. */
  | "NO_APLICA"
  /** Not asked yet (the factura is not accepted yet, or the first check is still to come). */
  | "SIN_CONSULTAR"
  /** Within the 8 days, no acceptance or claim yet. */
  | "SIN_RESPUESTA"
  /** The receiver accepted the content (ACD) or acknowledged the goods or services (ERM). */
  | "ACEPTADO"
  /** The receiver claimed: content (RCD), partial (RFP) or total (RFT) lack of goods. */
  | "RECLAMADO"
  /** 8 days passed without a claim. */
  | "ACEPTADO_TACITO";

/** One event of the registry: ACD, ERM, RCD, RFP, RFT, or NCA/ENC (a credit note referring to the factura). */
export interface AcceptanceEvent {
  codigo: string;
  descripcion: string;
  rut_responsable: string | null;
  fecha: Timestamp | null;
}

/** `GET /dte/{id}/aceptacion`. */
export interface DteAcceptance {
  id: string;
  tipo: TipoDte;
  folio: number;
  estado: AcceptanceStatus;
  eventos: AcceptanceEvent[];
  /** When the SII received the factura; the 8 days count from here. */
  recibido_sii_at: Timestamp | null;
  plazo_hasta: Timestamp | null;
  consultado_at: Timestamp | null;
  /** When Timbre asks the SII next on its own (null: nothing more can change). */
  proxima_consulta_at: Timestamp | null;
}

export interface DteStatusParams {
  /** Ask the SII now instead of answering from the last stored answer. */
  refresh?: boolean;
}

/** Optional body of `POST /dte/{id}/anular`. */
export interface AnularParams {
  /** The reference's reason (`RazonRef`, ≤ 90), default "Anula documento". */
  razon?: string;
  /** The credit note's tax date (default today in Chile). */
  fecha?: DateString;
  /** Receptor fields that replace the ones copied from the annulled document. */
  receptor?: Partial<Receptor>;
}

export interface DtePdfParams {
  /** `carta` (default) or `termica` (80 mm). */
  formato?: "carta" | "termica";
  /** The transferable copy of 33/34/52. */
  cedible?: boolean;
}

export interface DteXmlParams {
  /** The whole signed envelope that was uploaded instead of the DTE alone. */
  envio?: boolean;
}

/**
 * A document of a batch: an emission request, optionally with its own idempotency key (a Timbre extension). Sent
 * again within 24 h under the same key, the document is answered as it was emitted (`replayed: true`) and takes no
 * folio; it shares the key space of `emit`'s `idempotencyKey`. `withContentKeys` makes keys from the documents.
 */
export type BatchDocument = EmitParams & { idempotency_key?: string };

export interface BatchParams {
  /** 1–500 documents. */
  documents: BatchDocument[];
}

export interface BatchResultItem {
  index: number;
  success: boolean;
  data?: Dte;
  error?: ApiErrorBody;
  /** The document's `idempotency_key` named a document emitted before: `data` is that one, nothing was emitted. */
  replayed?: true;
}

export interface BatchResult {
  results: BatchResultItem[];
}

/** One document of `dte.batchPreview`: its totals, or the error the batch would give it. */
export interface BatchPreviewItem {
  index: number;
  success: boolean;
  /** `document`: the one emitted before under the document's `idempotency_key` (then `replayed` is true). */
  data?: { totals: Totals; document?: { id: string; tipo: TipoDte; folio: number; estado: DteStatus; fecha_emision: string } };
  error?: ApiErrorBody;
  /** Already emitted under its `idempotency_key`: the batch would answer that document and take no folio. */
  replayed?: true;
}

export interface BatchPreviewResult {
  results: BatchPreviewItem[];
}

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

export interface PreviewResult {
  totals: Totals;
  xml_preview: string;
}

// ── Tokens (§6.5) ─────────────────────────────────────────────────────────────────────────

export interface ApiKey {
  id: string;
  name: string;
  /** First 12 characters, e.g. `sk_test_AbCd`. */
  prefix: string;
  last4: string;
  environment: Environment;
  permissions: Permission[];
  business_id: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

/** The creation answer: the only time the full key is shown. */
export interface CreatedApiKey extends ApiKey {
  key: string;
}

export interface TokenCreateParams {
  name: string;
  permissions: Permission[];
  environment?: Environment;
  business_id?: string;
}

export interface RevokedApiKey {
  id: string;
  revoked: true;
  revoked_at: Timestamp;
}

// ── Events and webhooks (§6.6) ────────────────────────────────────────────────────────────

export type EventKind = "dte.status_changed" | "dte.acceptance_changed" | "numeration.low" | "numeration.expiring" | "certificate.expiring";

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

/** The body delivered to webhook receivers (and listed by `GET /events`). */
export type WebhookEvent =
  | DteStatusChangedEvent
  | DteAcceptanceChangedEvent
  | NumerationLowEvent
  | NumerationExpiringEvent
  | CertificateExpiringEvent;

export interface Delivery {
  attempt: number;
  at: Timestamp;
  status_code: number | null;
  ok: boolean;
}

export type EventWithDeliveries = WebhookEvent & { deliveries: Delivery[] };

export interface EventListParams extends ListParams {
  event?: EventKind;
}

// ── Utilities (§6.7) ──────────────────────────────────────────────────────────────────────

export interface Health {
  status: "ok" | "unavailable";
  version: string;
  uptime_s: number;
  checks: { database: string; tax_authority: "ok" | "degraded" | "unknown" | string };
}

export interface RutValidation {
  valid: boolean;
  /** Normalised `76192083-9`, or null when invalid. */
  rut: string | null;
  /** Formatted `76.192.083-9`, or null when invalid. */
  formateado: string | null;
  dv_esperado: string | null;
}

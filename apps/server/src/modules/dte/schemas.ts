/** Request and response schemas of /v1/dte (API.md §6.3). Bodies are checked by `readEmitRequest`, not Elysia. */
import { FormatRegistry, Type, type Static, type TSchema } from "@sinclair/typebox";
import { DOCUMENT_STATES } from "@timbre/core/lifecycle";
import { isValidRut } from "@timbre/core/rut";
import { DATE_PATTERN } from "../../http/validation.js";

// Reported as reason `invalid_rut` (http/validation.ts).
if (!FormatRegistry.Has("rut")) FormatRegistry.Set("rut", (value) => isValidRut(value));

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** Request objects name every field they take: any other is refused (API.md §1 "Unknown fields"). */
const CLOSED = { additionalProperties: false } as const;
const OneTwoThree = () => Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)]);

export const EMIT_TIPOS = [33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112] as const;

export const ReceptorBody = Type.Object({
  rut: Type.String({ format: "rut", maxLength: 16 }),
  razon_social: Type.String({ minLength: 1, maxLength: 100 }),
  giro: Type.Optional(Type.String({ maxLength: 40 })),
  direccion: Type.Optional(Type.String({ maxLength: 70 })),
  comuna: Type.Optional(Type.String({ maxLength: 20 })),
  ciudad: Type.Optional(Type.String({ maxLength: 20 })),
  email: Type.Optional(Type.String({ maxLength: 80 })),
  contacto: Type.Optional(Type.String({ maxLength: 80 })),
}, { ...CLOSED, description: "Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3" });

/** Extension: one additional tax of a document (ILA…), by code: rate, the sum of its lines and the tax on it. */
const AdditionalTaxSchema = Type.Object({ codigo: Type.Integer(), tasa: Type.Number(), base: Type.Integer(), monto: Type.Integer() });

export const ItemBody = Type.Object({
  nombre: Type.String({ minLength: 1, maxLength: 80 }),
  cantidad: Type.Number({ exclusiveMinimum: 0 }),
  precio: Type.Number({ minimum: 0 }),
  unidad: Type.Optional(Type.String({ maxLength: 4 })),
  descuento_porcentaje: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  descripcion: Type.Optional(Type.String({ maxLength: 1000 })),
  codigo: Type.Optional(Type.String({ maxLength: 35 })),
  exento: Type.Optional(Type.Boolean()),
  impuesto_adicional: Type.Optional(
    Type.Integer({ description: "extension: additional tax code of the line (CodImpAdic), e.g. 27 soft drinks 10 %, 271 sugary drinks 18 %, 24 spirits 31.5 %, 25 wine / 26 beer 20.5 %, 18 meat 5 %, 19 flour 12 %, 23 art. 37 15 %; facturas 33 and their notes only" }),
  ),
}, CLOSED);

export const ReferenciaBody = Type.Object({
  tipo_doc: Type.Union([Type.Integer({ minimum: 0 }), Type.String({ minLength: 1, maxLength: 3 })]),
  // JSON numbers past 2^53 arrive rounded (99999999999999999 → 1e17): longer folios must be sent as text.
  folio: Type.Union([Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), Type.String({ minLength: 1, maxLength: 18 })]),
  fecha: Type.String({ pattern: DATE_PATTERN }),
  razon: Type.Optional(Type.String({ maxLength: 90 })),
  codigo: Type.Optional(
    Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)], {
      description: "CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required",
    }),
  ),
}, { ...CLOSED, description: "The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3" });

/** Extension: why the goods of a guía de despacho (52) move (`IndTraslado`) and who dispatches them (`TipoDespacho`). */
export const TrasladoBody = Type.Object({
  tipo: Type.Integer({ minimum: 1, maximum: 9, description: "IndTraslado: 1 operación constituye venta, 2 ventas por efectuar, 3 consignaciones, 4 entrega gratuita, 5 traslados internos, 6 otros traslados no venta, 7 guía de devolución, 8 traslado para exportación, 9 venta para exportación" }),
  despacho: Type.Optional(Type.Integer({ minimum: 1, maximum: 3, description: "TipoDespacho: 1 por cuenta del receptor, 2 del emisor a instalaciones del cliente, 3 del emisor a otras instalaciones" })),
}, CLOSED);

/** Extension: the transport of a guía de despacho (52). */
export const TransporteBody = Type.Object({
  patente: Type.Optional(Type.String({ minLength: 1, maxLength: 8 })),
  rut_transportista: Type.Optional(Type.String({ format: "rut", maxLength: 16 })),
  chofer: Type.Optional(Type.Object({ rut: Type.String({ format: "rut", maxLength: 16 }), nombre: Type.String({ minLength: 1, maxLength: 30 }) }, CLOSED)),
  direccion_destino: Type.Optional(Type.String({ minLength: 1, maxLength: 70 })),
  comuna_destino: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
  ciudad_destino: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
}, CLOSED);

export const EmitBody = Type.Object({
  tipo: Type.Union([Type.Literal(33), Type.Literal(34), Type.Literal(39), Type.Literal(41), Type.Literal(52), Type.Literal(56), Type.Literal(61)]),
  fecha: Type.Optional(Type.String({ pattern: DATE_PATTERN })),
  receptor: ReceptorBody,
  items: Type.Array(ItemBody, { minItems: 1, maxItems: 1000 }),
  precios_brutos: Type.Optional(
    Type.Boolean({
      description:
        "Whether the items' `precio` include IVA (gross). Default false: prices are net and IVA is added. " +
        "Timbre's CLI quick boleta, dashboard form and emission sheet default to gross prices on boletas (39/41) and then send `precios_brutos: true` explicitly. " +
        "Ignored (applied as false) on the exempt tipos 34 and 41; not allowed on a 52.",
    }),
  ),
  referencia: Type.Optional(ReferenciaBody),
  referencias: Type.Optional(Type.Array(ReferenciaBody, { maxItems: 40 })),
  forma_pago: Type.Optional(OneTwoThree()),
  descuento_global_porcentaje: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  observaciones: Type.Optional(Type.String({ maxLength: 1000 })),
  traslado: Type.Optional(TrasladoBody),
  transporte: Type.Optional(TransporteBody),
}, CLOSED);

export type EmitRequest = Static<typeof EmitBody>;
export type ReferenciaRequest = Static<typeof ReferenciaBody>;

/** `POST /dte/{id}/anular`'s optional body: the reference's reason, the note's date, receptor fields to replace. */
export const AnularBody = Type.Object({
  razon: Type.Optional(Type.String({ minLength: 1, maxLength: 90 })),
  fecha: Type.Optional(Type.String({ pattern: DATE_PATTERN })),
  receptor: Type.Optional(Type.Partial(ReceptorBody, CLOSED)),
}, CLOSED);

/** The field of a batch document that carries its own idempotency key (extension, `document-keys.ts`). */
export const DOCUMENT_KEY_FIELD = "idempotency_key";

/**
 * Each document is an emission request, optionally with its own `idempotency_key` (extension, `document-keys.ts`).
 * Documents are validated one by one (each gets its own result), so this schema types them loosely; the API
 * reference shows them as `BatchBodyReference` does.
 */
export const BatchBody = Type.Object({
  documents: Type.Array(Type.Unknown(), {
    minItems: 1,
    maxItems: 500,
    description: "emission requests as for /dte/emit; each may carry its own idempotency_key (extension: a document emitted before under that key is answered, not emitted again)",
  }),
}, CLOSED);

/** `BatchBody` as the API reference shows it: every document an emission request, with its optional key. */
export const BatchBodyReference = Type.Object({
  documents: Type.Array(
    Type.Composite([EmitBody, Type.Object({ [DOCUMENT_KEY_FIELD]: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "this document's own idempotency key (extension): emitted before under it, it is answered, not emitted again" })) })], CLOSED),
    { minItems: 1, maxItems: 500 },
  ),
}, CLOSED);

/**
 * Response enums, for the document: an `enum` keyword on a string or integer is not checked by TypeBox nor seen by
 * TypeScript (the presenters keep their types), while the OpenAPI document and the clients generated from it get
 * exactly these values.
 */
const TipoOut = () => Type.Integer({ enum: [...EMIT_TIPOS], description: "the document's tipo (API.md §6.3, §13)" });
const EstadoOut = () => Type.String({ enum: [...DOCUMENT_STATES], description: "PENDIENTE (signed, not yet uploaded) → ENVIADO (uploaded, `track_id`) → ACEPTADO | ACEPTADO_CON_REPAROS | RECHAZADO (API.md §6.3)" });
const EnvironmentOut = () => Type.String({ enum: ["test", "live"] });

export const Dte = Type.Object({
  id: Type.String(),
  tipo: TipoOut(),
  folio: Type.Integer(),
  fecha_emision: Type.String(),
  fecha: Type.String(),
  receptor: Type.Object({ rut: Type.String(), razon_social: Nullable(Type.String({ description: "null when the document was stored without a name (the column is nullable: a client must handle it)" })) }),
  monto_neto: Type.Integer(),
  monto_exento: Type.Number(),
  monto_iva: Type.Integer(),
  monto_total: Type.Number({ description: "pesos; an export's in its currency (up to 4 decimals), in lists too, its pesos in `monto_total_pesos`" }),
  monto_iva_retenido: Type.Optional(Type.Integer({ description: "46: the IVA the buyer retains" })),
  monto_iva_no_retenido: Type.Optional(Type.Integer({ description: "46: IVANoRet" })),
  moneda: Type.Optional(Type.String({ description: "110–112: TpoMoneda" })),
  tipo_cambio: Type.Optional(Type.Number({ description: "110–112: pesos per unit" })),
  monto_total_pesos: Type.Optional(Type.Integer({ description: "110–112: MntTotOtrMnda" })),
  estado: EstadoOut(),
  track_id: Nullable(Type.String({ description: "the SII's upload id; null while PENDIENTE" })),
  pdf_url: Type.String(),
  xml_url: Type.String(),
  environment: EnvironmentOut(),
  created_at: Type.String(),
});

export const HistoryEntry = Type.Object({ estado: EstadoOut(), at: Type.String(), detalle: Type.Optional(Type.String()) });

/** The delivery to the receiver (API.md §11). */
export const IntercambioSchema = Type.Object({
  destinatarios: Type.Array(Type.String()),
  estado: Type.Union([Type.Literal("PENDIENTE"), Type.Literal("ENVIADO"), Type.Literal("FALLIDO"), Type.Literal("SIN_DESTINATARIO"), Type.Literal("SIN_CORREO"), Type.Literal("NO_APLICA")]),
  enviado_at: Nullable(Type.String()),
  intentos: Type.Integer(),
  error: Nullable(Type.String()),
  respuestas: Type.Array(
    Type.Object({ tipo: Type.Union([Type.Literal("recepcion"), Type.Literal("resultado"), Type.Literal("recibo")]), codigo: Type.Integer(), glosa: Type.String(), at: Type.String() }),
  ),
});

/** `POST /dte/{id}/enviar` (API.md §11): one address, or the receivers the document is delivered to. */
export const EnviarBody = Type.Object({ email: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })) }, { additionalProperties: false });

export const DteDetail = Type.Composite([
  Type.Omit(Dte, ["receptor"]),
  Type.Object({
    receptor: Type.Composite([Type.Omit(ReceptorBody, ["rut", "razon_social"]), Type.Object({ rut: Type.String(), razon_social: Nullable(Type.String()) })]),
    precios_brutos: Type.Boolean(),
    forma_pago: Type.Optional(OneTwoThree()),
    descuento_global_porcentaje: Type.Optional(Type.Number()),
    observaciones: Type.Optional(Type.String()),
    impuestos_adicionales: Type.Optional(Type.Array(AdditionalTaxSchema)),
    traslado: Type.Optional(TrasladoBody),
    transporte: Type.Optional(TransporteBody),
    items: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    referencias: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    historial: Type.Array(HistoryEntry),
    intercambio: IntercambioSchema,
  }),
]);

export const SalesSummarySchema = Type.Object({
  desde: Type.String(),
  hasta: Type.String(),
  tipos: Type.Array(
    Type.Object({ tipo: Type.Integer(), documentos: Type.Integer(), monto_neto: Type.Integer(), monto_exento: Type.Integer(), monto_iva: Type.Integer(), monto_total: Type.Integer() }),
  ),
  debito_fiscal: Type.Integer(),
  total_neto_de_notas: Type.Integer(),
  impuestos_adicionales: Type.Array(AdditionalTaxSchema),
  rechazados: Type.Integer(),
  sin_respuesta: Type.Integer(),
});

export const SiiSnapshotSchema = Type.Object({
  estado_envio: Nullable(Type.String()),
  glosa: Nullable(Type.String()),
  aceptados: Nullable(Type.Integer()),
  rechazados: Nullable(Type.Integer()),
  reparos: Nullable(Type.Integer()),
  errores: Type.Array(Type.Object({ codigo: Type.String(), descripcion: Type.String(), ayuda: Type.String() })),
  consultado_at: Nullable(Type.String()),
});

export const DteStatus = Type.Object({
  id: Type.String(),
  estado: EstadoOut(),
  track_id: Nullable(Type.String()),
  sii: SiiSnapshotSchema,
  historial: Type.Array(HistoryEntry),
});

/** Extension: the receiver's acceptance or claim of a factura (`GET /dte/{id}/aceptacion`). */
export const AcceptanceSchema = Type.Object({
  id: Type.String(),
  tipo: Type.Integer(),
  folio: Type.Integer(),
  estado: Type.Union([
    Type.Literal("NO_APLICA"), Type.Literal("SIN_CONSULTAR"), Type.Literal("SIN_RESPUESTA"),
    Type.Literal("ACEPTADO"), Type.Literal("RECLAMADO"), Type.Literal("ACEPTADO_TACITO"),
  ]),
  eventos: Type.Array(
    Type.Object({ codigo: Type.String(), descripcion: Type.String(), rut_responsable: Nullable(Type.String()), fecha: Nullable(Type.String()) }),
  ),
  recibido_sii_at: Nullable(Type.String()),
  plazo_hasta: Nullable(Type.String()),
  consultado_at: Nullable(Type.String()),
  proxima_consulta_at: Nullable(Type.String()),
});

const BatchItemErrorSchema = Type.Object({ code: Type.String(), message: Type.String(), details: Type.Optional(Type.Record(Type.String(), Type.Unknown())) });

export const BatchResult = Type.Object({
  results: Type.Array(
    Type.Object({
      index: Type.Integer(),
      success: Type.Boolean(),
      data: Type.Optional(Dte),
      error: Type.Optional(BatchItemErrorSchema),
      replayed: Type.Optional(Type.Literal(true, { description: "the document's idempotency_key named a document emitted before: this one, nothing emitted now" })),
    }),
  ),
});

/** `POST /dte/batch/preview` (extension): per document, its totals or what the batch would answer. */
export const BatchCheckResult = Type.Object({
  results: Type.Array(
    Type.Object({
      index: Type.Integer(),
      success: Type.Boolean(),
      data: Type.Optional(
        Type.Object({
          totals: Type.Record(Type.String(), Type.Unknown()),
          document: Type.Optional(Type.Object({ id: Type.String(), tipo: Type.Integer(), folio: Type.Integer(), estado: Type.String(), fecha_emision: Type.String() })),
        }),
      ),
      error: Type.Optional(BatchItemErrorSchema),
      replayed: Type.Optional(Type.Literal(true, { description: "already emitted under the document's idempotency_key: the batch would answer that document" })),
    }),
  ),
});

export const PreviewResult = Type.Object({ totals: Type.Record(Type.String(), Type.Unknown()), xml_preview: Type.String() });

import { Type } from "@sinclair/typebox";

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const ReceivedDocument = Type.Object({
  id: Type.String(),
  emisor: Type.Object({ rut: Type.String(), razon_social: Type.String(), giro: Type.Union([Type.String(), Type.Null()]) }),
  tipo: Type.Integer(),
  folio: Type.Integer(),
  fecha: Type.String(),
  monto_neto: Type.Integer(),
  monto_exento: Type.Integer(),
  monto_iva: Type.Integer(),
  monto_total: Type.Integer(),
  items: Type.Array(Type.Unknown()),
  referencias: Type.Array(Type.Unknown()),
  recibido_at: Type.String(),
  recibido_sii_at: Nullable(Type.String()),
  plazo_hasta: Nullable(Type.String()),
  estado: Type.Union([Type.Literal("SIN_RESPUESTA"), Type.Literal("ACEPTADO"), Type.Literal("RECLAMADO"), Type.Literal("ACEPTADO_TACITO"), Type.Literal("NO_APLICA")]),
  eventos: Type.Array(
    Type.Object({
      codigo: Type.String(),
      descripcion: Type.String(),
      rut_responsable: Nullable(Type.String()),
      fecha: Nullable(Type.String()),
      origen: Type.Union([Type.Literal("timbre"), Type.Literal("sii")]),
    }),
  ),
  verificacion: Type.Object(
    { firma: Type.String(), firma_variante: Type.Optional(Type.String()), timbre: Type.String(), caf: Type.String(), receptor: Type.String(), emisor: Type.Optional(Type.String()) },
  ),
  superseded_by: Nullable(Type.String()),
  environment: Type.String(),
  created_at: Type.String(),
});

export const ImportResults = Type.Object({
  results: Type.Array(
    Type.Object({
      index: Type.Integer(),
      success: Type.Boolean(),
      data: Type.Optional(ReceivedDocument),
      duplicate: Type.Optional(Type.Literal(true)),
      error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String(), details: Type.Optional(Type.Unknown()) })),
    }),
  ),
});

export const InboxItem = Type.Object({
  id: Type.String(),
  source: Type.String(),
  reason: Type.String(),
  detail: Type.String(),
  from: Nullable(Type.String()),
  subject: Nullable(Type.String()),
  filename: Nullable(Type.String()),
  created_at: Type.String(),
});

export const ImportJsonBody = Type.Object(
  { xml: Type.String({ minLength: 1 }), reply_to: Type.Optional(Type.String({ maxLength: 254 })) },
  { additionalProperties: false },
);

export const AcceptBody = Type.Object(
  { recibo_mercaderias: Type.Optional(Type.Boolean()), recinto: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })) },
  { additionalProperties: false },
);

export const ClaimBody = Type.Object(
  { accion: Type.Union([Type.Literal("RCD"), Type.Literal("RFP"), Type.Literal("RFT")]), motivo: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const listParameters = ["emisor_rut", "tipo", "estado", "desde", "hasta"].map((name) => ({ name, in: "query" as const, required: false, schema: { type: "string" as const } }));

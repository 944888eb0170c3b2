import { Type } from "@sinclair/typebox";

/** Document types whose CAFs Timbre accepts (API.md §6.3/§6.4). */
export const SUPPORTED_TIPOS = [33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112] as const;
export const ESTADOS = ["activa", "agotada", "vencida"] as const;
export type Estado = (typeof ESTADOS)[number];

const Tipo = Type.Union(SUPPORTED_TIPOS.map((t) => Type.Literal(t)));

export const Numeration = Type.Object({
  id: Type.String(),
  business_id: Type.String(),
  tipo: Type.Integer(),
  desde: Type.Integer(),
  hasta: Type.Integer(),
  siguiente_folio: Type.Integer(),
  disponibles: Type.Integer(),
  usados: Type.Integer(),
  fecha_autorizacion: Type.String(),
  vence_el: Type.Union([Type.String(), Type.Null()]),
  environment: Type.Union([Type.Literal("test"), Type.Literal("live")]),
  estado: Type.Union([Type.Literal("activa"), Type.Literal("agotada"), Type.Literal("vencida")]),
  created_at: Type.String(),
});

export const CafJsonBody = Type.Object({ caf_xml: Type.String({ minLength: 1 }) }, { additionalProperties: false });

export const SandboxNumerationBody = Type.Object({
  tipo: Tipo,
  cantidad: Type.Integer({ minimum: 1, maximum: 100_000 }),
}, { additionalProperties: false });

/** OpenAPI request body of the CAF upload (the three accepted shapes). */
export const cafUploadRequestBody = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: { type: "object" as const, required: ["file"], properties: { file: { type: "string" as const, format: "binary" } } },
    },
    "application/xml": { schema: { type: "string" as const, description: "the CAF file as issued by the SII" } },
    "text/xml": { schema: { type: "string" as const } },
    "application/json": { schema: CafJsonBody },
  },
};

export const listParameters = [
  { name: "tipo", in: "query" as const, required: false, schema: { type: "integer" as const, enum: [...SUPPORTED_TIPOS] } },
  { name: "estado", in: "query" as const, required: false, schema: { type: "string" as const, enum: [...ESTADOS] } },
];

import { FormatRegistry, Type, type TSchema } from "@sinclair/typebox";
import { isValidRut } from "@timbre/core/rut";
import { DATE_PATTERN, READ_ONLY_KEYWORD } from "../../http/validation.js";

// Reported as reason `invalid_rut` (http/validation.ts).
if (!FormatRegistry.Has("rut")) FormatRegistry.Set("rut", (value) => isValidRut(value));

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Lengths follow the SII XML fields (RznSoc 100, GiroEmis 80, DirOrigen 70, CmnaOrigen 20, …). */
const fields = {
  razon_social: Type.String({ minLength: 1, maxLength: 100 }),
  giro: Type.String({ minLength: 1, maxLength: 80 }),
  acteco: Type.Array(Type.Integer({ minimum: 100000, maximum: 999999 }), { minItems: 1, maxItems: 4 }),
  direccion: Type.String({ minLength: 1, maxLength: 70 }),
  comuna: Type.String({ minLength: 1, maxLength: 20 }),
  ciudad: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  email: Type.Optional(Nullable(Type.String({ maxLength: 80, pattern: "^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$" }))),
  telefono: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  /** `CdgSIISucur`: 1–9 digits, as a number or a string (`business-fields.ts` checks the digits). */
  sucursal_sii: Type.Optional(Nullable(Type.Union([Type.String({ maxLength: 20 }), Type.Integer({ minimum: 0, maximum: 999999999 })]))),
  /** Extension: the SII unit printed under the PDF's box; the comuna when absent. */
  unidad_sii: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  resolucion: Type.Optional(
    Nullable(Type.Object({ numero: Type.Integer({ minimum: 0, maximum: 999999 }), fecha: Type.String({ pattern: DATE_PATTERN }) }, { additionalProperties: false })),
  ),
  webhook_url: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
};

export const CreateBusinessBody = Type.Object({ rut: Type.String({ format: "rut", maxLength: 16 }), ...fields }, { additionalProperties: false });

/** What a business shows but a PUT cannot set: sent back from a GET, they are `not_allowed`, not `unknown`. */
const READ_ONLY_FIELDS = ["id", "certificate", "created_at", "updated_at", "webhook_secret"];

/** API.md §12 door 3: the business's own mailbox; null removes it. `email` and `imap` are shown, never set. */
const IntercambioBody = Type.Object(
  { imap_url: Type.Optional(Nullable(Type.String({ maxLength: 2000, description: "`imaps://user:password@host:993/INBOX`, or `imap://…` with STARTTLS; sealed at rest, never returned" }))) },
  { additionalProperties: false, [READ_ONLY_KEYWORD]: ["email", "imap"] },
);

export const UpdateBusinessBody = Type.Partial(Type.Object({ rut: Type.String({ maxLength: 16 }), ...fields, intercambio: IntercambioBody }), {
  additionalProperties: false,
  [READ_ONLY_KEYWORD]: READ_ONLY_FIELDS,
});

export const CertificateJsonBody = Type.Object({
  pfx_base64: Type.String({ minLength: 1 }),
  password: Type.String({ maxLength: 1000 }),
}, { additionalProperties: false });

export const CertificateSummarySchema = Type.Object({
  rut_titular: Nullable(Type.String()),
  nombre_titular: Type.String(),
  emisor: Type.String(),
  serial: Type.String(),
  valid_from: Type.String(),
  valid_to: Type.String(),
  fingerprint_sha256: Type.String(),
});

export const Business = Type.Object({
  id: Type.String(),
  rut: Type.String(),
  razon_social: Type.String(),
  giro: Type.String(),
  acteco: Type.Array(Type.Integer()),
  direccion: Type.String(),
  comuna: Type.String(),
  ciudad: Nullable(Type.String()),
  email: Nullable(Type.String()),
  telefono: Nullable(Type.String()),
  sucursal_sii: Nullable(Type.String()),
  unidad_sii: Nullable(Type.String()),
  resolucion: Nullable(Type.Object({ numero: Type.Integer(), fecha: Type.String() })),
  webhook_url: Nullable(Type.String()),
  certificate: Nullable(CertificateSummarySchema),
  intercambio: Type.Object({
    email: Nullable(Type.String()),
    imap: Nullable(
      Type.Object({
        host: Type.String(),
        user: Type.String(),
        ultimo_chequeo_at: Nullable(Type.String()),
        error: Type.Union([Type.Literal("auth"), Type.Literal("tls"), Type.Literal("unreachable"), Type.Literal("mailbox"), Type.Null()]),
      }),
    ),
  }),
  created_at: Type.String(),
  updated_at: Type.String(),
  webhook_secret: Type.Optional(Type.String()),
});

export const Deleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });
export const WebhookSecret = Type.Object({ webhook_secret: Type.String() });

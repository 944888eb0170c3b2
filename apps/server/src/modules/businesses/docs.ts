/** What the OpenAPI document says about `/v1/businesses` (API.md §6.2). */
import type { ContractDocs } from "../../http/openapi-contract.js";

const BUSINESS = { rut: "76192083-9", razon_social: "Café Austral SpA", giro: "Cafetería", acteco: [561000], direccion: "Av. Providencia 1234", comuna: "Providencia", ciudad: "Santiago", email: "contacto@cafe-austral.cl" };

export const businessDocs: ContractDocs = {
  "GET /v1/businesses": {
    access: "businesses:read",
    description: "The businesses of the caller's user, paginated; with an API key, only the key's business.",
  },
  "POST /v1/businesses": {
    access: "businesses:write",
    jsonBody: true,
    description: "Registers a business: the issuer of its documents (`rut`, `razon_social`, `giro`, `acteco` 1–4 SII activity codes, `direccion`, `comuna` required). `resolucion` (number and date of the SII resolution) is needed before emitting in `live`. With a `webhook_url` the answer carries `webhook_secret` (prefix `whsec`, then an underscore) this once. A RUT this user already registered is 409 `CONFLICT`.",
    errors: ["CONFLICT"],
    examples: { cafe: { summary: "A café", value: { ...BUSINESS, webhook_url: "https://cafe-austral.cl/hooks/timbre" } } },
  },
  "GET /v1/businesses/{id}": {
    access: "businesses:read",
    description: "One business, with its certificate's public summary (never a key or a password).",
  },
  "PUT /v1/businesses/{id}": {
    access: "businesses:write",
    jsonBody: true,
    description: "Changes the fields sent and keeps the others. `rut` cannot change, and read-only fields sent back from a GET (`id`, `certificate`, `created_at`, `intercambio.email`…) are 422 reason `not_allowed`. Setting `webhook_url` for the first time answers `webhook_secret` once. `intercambio.imap_url` connects a mailbox the business keeps elsewhere (`imaps://user:password@host:993/INBOX`, or `imap://…`, which must offer STARTTLS): Timbre polls it every minute and imports every `EnvioDTE` that arrives, keeping its place by UIDVALIDITY/UID, so reading or flagging messages hides nothing. Private and loopback servers are refused (422 reason `not_allowed`). The URL is sealed at rest and never returned: the business shows `intercambio.imap` `{ host, user, ultimo_chequeo_at, error }`, `error` one of `auth`, `tls`, `unreachable`, `mailbox`. `null` removes the mailbox.",
    examples: {
      resolution: { summary: "The SII resolution for live emission", value: { resolucion: { numero: 80, fecha: "2014-08-22" } } },
      mailbox: { summary: "Poll the business's own intercambio mailbox", value: { intercambio: { imap_url: "imaps://facturas%40cafe-austral.cl:clave-del-correo@imap.cafe-austral.cl:993/INBOX" } } },
    },
  },
  "DELETE /v1/businesses/{id}": {
    access: "businesses:write",
    description: "Soft delete: answers `{ id, deleted: true }` and revokes the business's keys. Its documents are kept (6 years, tax law) and stay downloadable by the owner's session.",
  },
  "POST /v1/businesses/{id}/certificate": {
    access: "businesses:write",
    jsonBody: true,
    description: "Uploads the signing certificate (PKCS#12 `.p12`/`.pfx`) as `multipart/form-data` (`file`, `password`) or JSON `{ pfx_base64, password }`. The private key is stored encrypted; the password is not stored. Errors: 422 `CERTIFICATE_INVALID` with `details.reason` `format`, `password`, `no_rsa_key`, `expired` or `not_yet_valid`.",
    errors: ["CERTIFICATE_INVALID", "UNSUPPORTED_MEDIA_TYPE"],
    examples: { json: { summary: "As JSON", value: { pfx_base64: "MIIKpgIBAzCCCmwGCSqGSIb3DQEHAaCCCl0Egg…", password: "clave del certificado" } } },
  },
  "POST /v1/businesses/{id}/webhook-secret": {
    access: "businesses:write",
    description: "Rotates the webhook signing secret: answers the new `webhook_secret` once. For 24 h deliveries carry signatures with both the old and the new secret, so receivers can switch without losing any.",
  },
};

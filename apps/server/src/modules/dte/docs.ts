/** What the OpenAPI document says about `/v1/dte` (API.md §6.3, §13): descriptions, examples, query parameters. */
import { DOCUMENT_STATES } from "@timbre/core/lifecycle";
import { ACCEPTANCE_STATES } from "../../dispatch/acceptance.js";
import type { ContractDocs } from "../../http/openapi-contract.js";
import { Ok } from "../../http/envelope.js";
import { EMIT_TIPOS, PreviewResult } from "./schemas.js";

const date = (name: string, description: string, required = false) => ({ name, in: "query", required, description, schema: { type: "string", format: "date" } });
const flag = (name: string, description: string) => ({ name, in: "query", description, schema: { type: "boolean", default: false } });
const file = (type: string, description: string) => ({ description, content: { [type]: { schema: { type: "string", format: "binary" } } } });

const RECEPTOR = { rut: "77123456-9", razon_social: "Comercial Los Andes Ltda.", giro: "Venta de artículos de oficina", direccion: "Av. Apoquindo 4500", comuna: "Las Condes", email: "dte@losandes.cl" };

const EXPORT_EXAMPLE = {
  summary: "Factura de exportación (110) in US dollars",
  description: "API.md §13: a foreign receptor (`extranjero`), the currency by its SII name, the exchange rate in pesos, and the customs data with the Aduana codes (1 CIF, 1 maritime, 906 San Antonio, 504 Italy).",
  value: {
    tipo: 110,
    receptor: { razon_social: "Vini Importati S.r.l.", extranjero: { nacionalidad: 504, num_id: "IT01234567890" }, direccion: "Via Roma 1", ciudad: "Génova" },
    moneda: "DOLAR USA", tipo_cambio: 950.25,
    items: [{ nombre: "Vino tinto reserva 750 ml", cantidad: 1200, precio: 6.5, unidad: "BOT" }],
    exportacion: { modalidad_venta: 1, clausula_venta: 1, total_clausula: 7800, via_transporte: 1, puerto_embarque: 906, puerto_desembarque: 544, pais_destino: 504, pais_receptor: 504, bultos: [{ tipo: 80, cantidad: 4, marcas: "VI-2026" }], flete: 420.5, seguro: 35.75 },
  },
};

/** One request per kind of document: what the issue of each looks like. The export shows once the schema takes a 110. */
export const EMIT_EXAMPLES = {
  factura: {
    summary: "Factura electrónica (33), net prices",
    description: "Prices are net; IVA (19 %) is added once on the total. The receptor of a factura needs `giro`, `direccion` and `comuna`.",
    value: { tipo: 33, receptor: RECEPTOR, items: [{ nombre: "Resma papel carta", cantidad: 10, precio: 3990, unidad: "UN" }, { nombre: "Despacho", cantidad: 1, precio: 5000, exento: true }], forma_pago: 2 },
  },
  boleta: {
    summary: "Boleta electrónica (39) with gross prices",
    description: "`precios_brutos: true`: the prices include IVA, as a shop shows them. `66666666-6` is the anonymous consumer.",
    value: { tipo: 39, receptor: { rut: "66666666-6", razon_social: "Consumidor final" }, precios_brutos: true, items: [{ nombre: "Café americano", cantidad: 2, precio: 2500 }, { nombre: "Medialuna", cantidad: 1, precio: 1200 }] },
  },
  nota_credito: {
    summary: "Nota de crédito (61) correcting amounts of a factura",
    description: "`referencia` names the factura (tipo, folio, date). `codigo` 3 corrects amounts; omitted against an own document it is 1 (anula) when the totals match, else 3.",
    value: { tipo: 61, receptor: RECEPTOR, items: [{ nombre: "Descuento por resmas dañadas", cantidad: 2, precio: 3990 }], referencia: { tipo_doc: 33, folio: 1520, fecha: "2026-11-20", razon: "Resmas dañadas en el despacho", codigo: 3 } },
  },
  guia: {
    summary: "Guía de despacho (52) moving goods",
    description: "`traslado.tipo` says why the goods move (1 a sale); `transporte` names the vehicle and the destination. `precios_brutos` is not allowed on a 52.",
    value: {
      tipo: 52, receptor: RECEPTOR, items: [{ nombre: "Resma papel carta", cantidad: 40, precio: 3990 }],
      traslado: { tipo: 1, despacho: 2 },
      transporte: { patente: "KXTR21", rut_transportista: "96790240-3", chofer: { rut: "12345678-5", nombre: "Juan Soto" }, direccion_destino: "Av. Apoquindo 4500", comuna_destino: "Las Condes", ciudad_destino: "Santiago" },
    },
  },
  ...((EMIT_TIPOS as readonly number[]).includes(110) ? { exportacion: EXPORT_EXAMPLE } : {}),
};

const TIPO_RULES = [
  "**Per tipo** (API.md §6.3, §13):",
  "- **33 factura, 34 factura exenta**: `receptor` needs `rut`, `razon_social`, `giro`, `direccion` and `comuna`; 1–60 items. On a 34 every line is exempt.",
  "- **39 boleta, 41 boleta exenta**: `receptor.rut` may be `66666666-6` (anonymous consumer); `giro`, `direccion`, `comuna` optional; up to 1000 items. Shops usually send `precios_brutos: true`.",
  "- **56 nota de débito, 61 nota de crédito**: the receptor as for a factura, and `referencia` (or `referencias[]`) is required: `tipo_doc`, `folio`, `fecha` of the referenced document, `razon`, and `codigo` (1 anula, 2 corrige texto, 3 corrige montos). Against an own document `codigo` defaults to 1 when the totals match, else 3; against a document Timbre did not issue it is required.",
  "- **52 guía de despacho**: `traslado` (`tipo` = IndTraslado, `despacho` = TipoDespacho) and optional `transporte`; `precios_brutos` not allowed.",
  "- **43, 46, 110, 111, 112**: see API.md §13 (liquidación-factura, factura de compra, exports in a foreign currency with `moneda`, `tipo_cambio`, `exportacion`).",
  "",
  "**Prices** are net unless `precios_brutos: true`; amounts are integer pesos, rounded half away from zero, IVA computed once on the total.",
].join("\n");

export const dteDocs: ContractDocs = {
  "POST /v1/dte/emit": {
    access: "dte:write",
    jsonBody: true,
    summary: "Emit a DTE",
    description: [
      "Validates the document, computes its totals, takes the next folio, timbres and signs it, stores it and uploads it to the SII — in one request (API.md §6.3).",
      "**201** with `estado: \"ENVIADO\"` and `track_id` when the SII took it; **202** with `estado: \"PENDIENTE\"` when the SII could not be reached in time: the document is kept, signed, with its folio, and uploaded later (a `dte.status_changed` event follows). A folio is never used twice.",
      "Send an `Idempotency-Key`: a retried request then answers the first document instead of emitting another.",
      "",
      TIPO_RULES,
      "",
      "Errors: a wrong or missing field is 422 `VALIDATION_ERROR` with every problem in `details.errors[]`; unknown fields are refused (reason `unknown`).",
    ].join("\n"),
    errors: ["CERTIFICATE_REQUIRED", "CERTIFICATE_INVALID", "FOLIOS_EXHAUSTED", "REFERENCE_INVALID", "BUSINESS_NOT_AUTHORIZED"],
    examples: EMIT_EXAMPLES,
  },
  "POST /v1/dte/batch": {
    access: "dte:write",
    jsonBody: true,
    description: [
      "Emits up to 500 documents in one request (one request for the rate limit, API.md §4). Each document is an emission request as for `POST /dte/emit` and gets its own result: `{ index, success, data? , error? }`; every valid one is emitted with its own folio, an invalid one does not stop the others.",
      "A document may carry its own `idempotency_key` (extension): a document emitted before under that key is answered (`replayed: true`), not emitted again.",
    ].join("\n"),
    errors: ["CERTIFICATE_REQUIRED", "BUSINESS_NOT_AUTHORIZED"],
    examples: { two: { summary: "A factura and a boleta", value: { documents: [{ ...EMIT_EXAMPLES.factura.value, idempotency_key: "pedido-1042" }, EMIT_EXAMPLES.boleta.value] } } },
  },
  "POST /v1/dte/batch/preview": {
    access: "dte:write",
    jsonBody: true,
    description: "Checks up to 500 documents as `POST /dte/batch` would (validation, folios available, idempotency keys already used) and answers each one's totals or error, without emitting anything or taking a folio (extension).",
    errors: ["CERTIFICATE_REQUIRED"],
    examples: { two: { summary: "A factura and a boleta", value: { documents: [EMIT_EXAMPLES.factura.value, EMIT_EXAMPLES.boleta.value] } } },
  },
  "POST /v1/dte/preview": {
    access: "dte:write",
    jsonBody: true,
    description: "The totals and the unsigned XML the same body would produce with `POST /dte/emit`, or with `?format=pdf` a PDF marked \"SIN VALIDEZ TRIBUTARIA\". Takes no folio and stores nothing (API.md §6.3).",
    query: [{ name: "format", in: "query", description: "`json` (default): totals and XML; `pdf`: the printed preview", schema: { type: "string", enum: ["json", "pdf"], default: "json" } }],
    examples: EMIT_EXAMPLES,
    responses: {
      "200": {
        description: "The totals and unsigned XML (`format=json`), or the PDF (`format=pdf`)",
        content: {
          "application/json": { schema: Ok(PreviewResult) },
          "application/pdf": { schema: { type: "string", format: "binary" } },
        },
      },
    },
  },
  "POST /v1/dte/{id}/anular": {
    access: "dte:write",
    jsonBody: true,
    description: "Issues the credit note (61) that annuls the document: `codigo` 1, the receptor and items copied (an export 110/111 is annulled by a 112, a 112 by a 111; a 43 by a 61 that repeats its `liquidacion`, settled documents as lines and commissions in `Totales/Comisiones`, so its total is the 43's — a 43 with a negative amount is 422 `REFERENCE_INVALID` reason `negative_amounts`, since a 61's amounts cannot be negative). The body is optional: the reference's `razon`, the note's `fecha`, receptor fields to replace. 201 or 202 with the new document, as `POST /dte/emit`. A document the SII rejected or already annulled is 422 `REFERENCE_INVALID`.",
    errors: ["CERTIFICATE_REQUIRED", "CERTIFICATE_INVALID", "FOLIOS_EXHAUSTED", "REFERENCE_INVALID", "BUSINESS_NOT_AUTHORIZED"],
    examples: { reason: { summary: "With a reason", value: { razon: "Venta anulada por el cliente" } } },
  },
  "GET /v1/dte": {
    access: "dte:read",
    description: "The business's documents in this environment, newest first, paginated (API.md §6.9). Filters combine (AND); `desde` and `hasta` are inclusive and apply to the tax date `fecha`.",
    query: [
      { name: "tipo", description: "only this tipo", schema: { type: "integer", enum: [...EMIT_TIPOS] } },
      date("desde", "from this tax date (YYYY-MM-DD, inclusive)"),
      date("hasta", "up to this tax date (YYYY-MM-DD, inclusive)"),
      { name: "estado", description: "only documents in this state", schema: { type: "string", enum: [...DOCUMENT_STATES] } },
      { name: "folio", description: "only this folio", schema: { type: "integer", minimum: 1 } },
      { name: "receptor_rut", description: "only documents to this receptor (any writing of the RUT)", schema: { type: "string" } },
      { name: "aceptacion", description: "extension: only facturas whose receiver answered this in the SII's registry", schema: { type: "string", enum: [...ACCEPTANCE_STATES] } },
    ],
  },
  "GET /v1/dte/resumen": {
    access: "dte:read",
    description: "Sales of a period by tipo, with the débito fiscal (IVA of 33/39/56 less that of 61; of a 46 the IVA its issuer retains, of a 43 the IVA of the agent's commissions — the settled sales' IVA is the principal's —, their notes likewise; each `tipos` row keeps its documents' own IVA) and the net of notes; documents the SII rejected are left out and counted in `rechazados` (extension).",
    query: [date("desde", "first tax date of the period (inclusive)", true), date("hasta", "last tax date of the period (inclusive)", true)],
  },
  "GET /v1/dte/{id}": {
    access: "dte:read",
    description: "The full document: the emission response plus the receptor as sent, `items` (with their computed `monto`), `referencias`, `historial` (every state change) and `intercambio`, its delivery to the receiver (API.md §11): `destinatarios`, `estado` (`PENDIENTE` until the SII accepts it and while it is being sent, `ENVIADO`, `FALLIDO`, `SIN_DESTINATARIO`, `SIN_CORREO`, `NO_APLICA` for boletas and the anonymous receiver), `enviado_at`, `intentos` (SMTP attempts of every delivery), the last `error`, and the receiver's `respuestas`.",
  },
  "POST /v1/dte/{id}/enviar": {
    access: "dte:write",
    jsonBody: true,
    description: [
      "Delivers the document now (API.md §11), again if it was delivered before: with `email`, to that one address; without, to its receivers (the receiver's *correo de intercambio* from the SII's list of electronic issuers and `receptor.email`). An `EnvioDTE` addressed to the receiver plus the PDF; a boleta (39, 41) only to a given address, as its signed XML plus the PDF.",
      "Answers 202 with the document's `intercambio` (the new delivery `PENDIENTE`, or `SIN_CORREO` with the reason when it cannot go: no `SMTP_URL`, or an address the test environment may not mail — only the inbound domain and `MAIL_TEST_ALLOWLIST`). The outcome follows in `GET /dte/{id}` and the events `dte.delivered` / `dte.delivery_failed`.",
      "409 `CONFLICT` reason `not_accepted` before the SII accepted the document; 429 `RATE_LIMITED` past 5 deliveries of the document in 24 hours (the automatic one counts; reason `document_daily_sends`) or `MAIL_DAILY_LIMIT` mails of the business (reason `mail_daily_limit`), with `retry_after`.",
    ].join("\n"),
    errors: ["CONFLICT", "RATE_LIMITED"],
    examples: {
      receivers: { summary: "To its receivers again", value: {} },
      address: { summary: "To one address", value: { email: "contabilidad@losandes.cl" } },
    },
  },
  "GET /v1/dte/{id}/status": {
    access: "dte:read",
    description: "The document's state and what the SII last said about its upload (`sii`: envelope state, counts, per-document errors with a hint). States: `PENDIENTE` → `ENVIADO` → `ACEPTADO` | `ACEPTADO_CON_REPAROS` | `RECHAZADO` (API.md §6.3). With `?refresh=true` the SII is asked now.",
    query: [flag("refresh", "ask the SII now instead of answering what was last known")],
  },
  "GET /v1/dte/{id}/aceptacion": {
    access: "dte:read",
    description: "The receiver's acceptance or claim of a factura (33, 34) or liquidación-factura (43) in the SII's registry (extension): `NO_APLICA` for other tipos, `SIN_CONSULTAR` before the first check, then `SIN_RESPUESTA`, `ACEPTADO`, `RECLAMADO` or `ACEPTADO_TACITO` after the 8 days. `?refresh=true` asks the SII now.",
    query: [flag("refresh", "ask the SII's registry now")],
  },
  "GET /v1/dte/{id}/pdf": {
    access: "dte:read",
    description: "The printed representation with the timbre (PDF417). `formato=carta` (default, letter size) or `termica` (80 mm roll); `cedible=true` gives the transferable copy, which only facturas and guías (33, 34, 52; 43, 46) have — asking it of another tipo is 400 `INVALID_PARAMETER`.",
    query: [
      { name: "formato", description: "`carta` (default) or `termica` (80 mm thermal roll)", schema: { type: "string", enum: ["carta", "termica"], default: "carta" } },
      flag("cedible", "the transferable copy (\"CEDIBLE\") of a factura or guía"),
    ],
    responses: { "200": file("application/pdf", "The PDF, `Content-Disposition: inline; filename=\"DTE-<tipo>-<folio>.pdf\"`") },
  },
  "GET /v1/dte/{id}/xml": {
    access: "dte:read",
    description: "The signed `DTE` exactly as stored (`application/xml; charset=ISO-8859-1`); `?envio=true` gives the whole signed envelope that was uploaded to the SII.",
    query: [flag("envio", "the uploaded EnvioDTE/EnvioBOLETA envelope instead of the DTE alone")],
    responses: { "200": file("application/xml", "The signed XML, ISO-8859-1") },
  },
};

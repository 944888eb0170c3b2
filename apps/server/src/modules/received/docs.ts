/** What the OpenAPI document says about `/v1/received` (API.md §12: documents suppliers send to the business). */
import type { ContractDocs } from "../../http/openapi-contract.js";

const file = (type: string, description: string) => ({ description, content: { [type]: { schema: { type: "string", format: "binary" } } } });

export const receivedDocs: ContractDocs = {
  "POST /v1/received": {
    access: "received:write",
    jsonBody: true,
    errors: ["UNSUPPORTED_MEDIA_TYPE", "ENVELOPE_INVALID"],
    description: [
      "Imports an `EnvioDTE` a supplier sent to this business (API.md §12, door 1): raw XML, a multipart `file` (with an optional `reply_to`), or JSON `{ xml, reply_to }`; at most 5 MiB.",
      "The envelope must parse without a DTD, be schema-valid, carry a valid signature and be addressed to this business's RUT; otherwise 422 `ENVELOPE_INVALID` (`details.reason`: `format`, `schema`, `signature`, `not_addressed`) and nothing is kept.",
      "Each DTE is then verified on its own (signature, timbre, CAF against the SII authority of the environment, receptor) and kept with its `verificacion`; a verified document is kept once (a repeat answers `duplicate: true`), a failed one is kept as evidence until a verified copy supersedes it.",
      "Every import that holds a verifiable document answers the emisor with the signed acuse de recibo (`RespuestaDTE`/`RecepcionEnvio`) by mail.",
      "Envelopes are verified on worker threads: 429 `RATE_LIMITED` with `Retry-After` when the business already has as many envelopes verifying as it may (`details.reason` `verify_per_business`) or the server's queue is full (`verify_queue_full`); 503 `UNAVAILABLE` (`verify_timeout`) when one takes longer than the server's limit, nothing kept.",
    ].join("\n"),
    examples: { json: { summary: "An envelope as JSON text, with the address to answer", value: { xml: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><EnvioDTE …>…</EnvioDTE>", reply_to: "dte@proveedor.cl" } } },
  },
  "GET /v1/received": {
    access: "received:read",
    description: "The business's received documents, newest first, paginated; filters `emisor_rut`, `tipo`, `estado`, `desde`, `hasta` (dates `YYYY-MM-DD`). Each shows its `verificacion`, its answer state and `plazo_hasta`, the last day to accept or claim (8 days after the SII received it; silence is acceptance).",
  },
  "GET /v1/received/inbox": {
    access: "received:read",
    description: "Messages that reached the business's intercambio address (or were uploaded) but could not be imported, with the reason, kept 30 days.",
  },
  "GET /v1/received/{id}": {
    access: "received:read",
    description: "One received document: emisor, tipo, folio, amounts, `verificacion`, the decision taken and `plazo_hasta`.",
  },
  "GET /v1/received/{id}/xml": {
    access: "received:read",
    description: "The DTE exactly as received (ISO-8859-1 unless its text needed UTF-8).",
    responses: { "200": file("application/xml", "The DTE as received") },
  },
  "GET /v1/received/{id}/pdf": {
    access: "received:read",
    description: "The received DTE printed from its XML, as the issuer stated it (lines, references, amounts, the timbre as a PDF417): `formato=carta` (default) or `termica` (80 mm roll). The issuer's SII resolution is not in the DTE, so its line is left out; no cedible copy (that is the issuer's). 409 `CONFLICT` reason `not_printable` for a document kept as evidence whose XML has no readable `Documento`; 429 `RATE_LIMITED` when the business has too many PDFs rendering.",
    query: [{ name: "formato", description: "`carta` (default) or `termica` (80 mm thermal roll)", schema: { type: "string", enum: ["carta", "termica"], default: "carta" } }],
    errors: ["CONFLICT", "RATE_LIMITED"],
    responses: { "200": file("application/pdf", "The PDF, `Content-Disposition: inline; filename=\"DTE-<rut emisor>-<tipo>-<folio>.pdf\"`") },
  },
  "POST /v1/received/{id}/aceptar": {
    access: "received:write",
    jsonBody: true,
    errors: ["CONFLICT", "SII_REFUSED"],
    description: [
      "Accepts the document (API.md §12): registers ACD in the SII's registry, or ACD and ERM with `recibo_mercaderias: true` (also after an earlier ACD), and mails the emisor the signed `ResultadoDTE` (plus `EnvioRecibos` with the Ley 19.983 declaration for ERM).",
      "409 `CONFLICT` when already decided (here or at sii.cl), past `plazo_hasta`, unknown to the SII, unverified, superseded or of a tipo that takes no answer (110–112); 422 `SII_REFUSED` when the registry refuses.",
    ].join("\n"),
    examples: { merchandise: { summary: "Accept and acknowledge the goods", value: { recibo_mercaderias: true, recinto: "Bodega central" } } },
  },
  "POST /v1/received/{id}/reclamar": {
    access: "received:write",
    jsonBody: true,
    errors: ["CONFLICT", "SII_REFUSED"],
    description: [
      "Claims the document in the SII's registry (API.md §12): `RCD` its content, `RFP` partial lack of goods, `RFT` total lack; with the `motivo` in words. Mails the emisor the signed rejection (`ResultadoDTE`).",
      "409 `CONFLICT` when already decided, past `plazo_hasta` or unknown to the SII; 422 `SII_REFUSED` when the registry refuses.",
    ].join("\n"),
    examples: { content: { summary: "Claim the content of an invoice", value: { accion: "RCD", motivo: "Precio distinto al acordado" } } },
  },
};

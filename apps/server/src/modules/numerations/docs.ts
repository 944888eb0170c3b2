/** What the OpenAPI document says about numerations (CAF) (API.md §6.4). */
import { pageParameters } from "../../http/envelope.js";
import type { ContractDocs } from "../../http/openapi-contract.js";
import { ESTADOS, SUPPORTED_TIPOS } from "./schemas.js";

export const numerationDocs: ContractDocs = {
  "GET /v1/businesses/{id}/numerations": {
    access: "numerations:read",
    description: "The business's folio ranges (CAF) in the caller's environment, paginated: `siguiente_folio`, `disponibles`, `usados`, `vence_el`, `estado` (`activa`, `agotada`, `vencida`). Folios are taken from the oldest active range first.",
    // the route's own `parameters` give way to its path parameter in the generated document: all of them here
    query: [
      ...pageParameters,
      { name: "tipo", description: "only ranges of this tipo", schema: { type: "integer", enum: [...SUPPORTED_TIPOS] } },
      { name: "estado", description: "only ranges in this state", schema: { type: "string", enum: [...ESTADOS] } },
    ],
  },
  "POST /v1/businesses/{id}/numerations": {
    access: "numerations:write",
    jsonBody: true,
    description: "Uploads a CAF as the SII issued it: `multipart/form-data` field `file`, raw `application/xml`, or JSON `{ caf_xml }`. It must be safe XML signed by the SII of this environment (IDK 100 test, 300 live), for this business's RUT and a supported tipo, with a key pair that matches (422 `CAF_INVALID`, `details.reason`); a range overlapping one already uploaded is 409 `CONFLICT`. CAFs of 33, 43, 46, 56 and 61 expire 6 months after their date.",
    errors: ["CAF_INVALID", "CONFLICT", "UNSUPPORTED_MEDIA_TYPE"],
    examples: { json: { summary: "As JSON", value: { caf_xml: "<AUTORIZACION><CAF version=\"1.0\"><DA><RE>76192083-9</RE>…</DA><FRMA algoritmo=\"SHA1withRSA\">…</FRMA></CAF>…</AUTORIZACION>" } } },
  },
  "GET /v1/numerations/{id}": {
    access: "numerations:read",
    description: "One folio range of the caller's business and environment: its folios used and left, expiry and state (never its private key).",
  },
  "POST /v1/sandbox/numerations": {
    access: "numerations:write",
    jsonBody: true,
    description: "Sandbox only (`SII_MODE=sandbox`, test environment): issues a CAF of `cantidad` folios of `tipo` for the caller's business from the local sandbox authority, so documents can be emitted without the SII. Elsewhere 404.",
    examples: { facturas: { summary: "1000 facturas", value: { tipo: 33, cantidad: 1000 } } },
  },
};

/** What the OpenAPI document says about `/v1/issuers` (API.md §14: the SII's list of authorised electronic issuers). */
import type { ContractDocs } from "../../http/openapi-contract.js";

export const issuerDocs: ContractDocs = {
  "GET /v1/issuers/{rut}": {
    access: "dte:read",
    errors: ["NOT_FOUND", "VALIDATION_ERROR"],
    description: [
      "One issuer of the SII's list of authorised electronic issuers for the key's environment (API.md §14): RUT, razón social, the SII resolution that authorised it (`numero` 0: certification only) and its *correo de intercambio*, where Timbre delivers documents issued to it (§11) and answers documents it sent (§12). The emission form uses it to fill a receiver.",
      "The list is the SII's published file (`SII_ISSUERS_FILE`); in sandbox mode, the sandbox's businesses with their Timbre intercambio addresses come first. 404 `NOT_FOUND` when the RUT is not listed; 422 `VALIDATION_ERROR` (reason `invalid_rut`) for a malformed RUT or a wrong check digit.",
    ].join("\n"),
  },
};

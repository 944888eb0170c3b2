/** What the OpenAPI document says about `/v1/health` and `/v1/rut/validate` (API.md §6.7). */
import type { ContractDocs } from "../../http/openapi-contract.js";

export const utilityDocs: ContractDocs = {
  "GET /v1/health": {
    access: "public",
    description: "Whether this instance can serve: `status: \"ok\"` with its version, uptime and checks (`database`, `tax_authority`: `ok`, `degraded` or `unknown`). Needs no key and is not rate limited; answers 503 `UNAVAILABLE` when the database is down (API.md §6.7).",
  },
  "POST /v1/rut/validate": {
    access: "any",
    jsonBody: true,
    description: "Checks a RUT's check digit, written with or without dots and in any case. An invalid RUT is still 200 with `valid: false` and the expected digit (`dv_esperado`); only a missing `rut` is 422 (API.md §6.7).",
    examples: { dotted: { summary: "With dots", value: { rut: "76.192.083-9" } } },
  },
};

/** What the OpenAPI document says about `/v1/tokens` (API.md §2, §6.5). */
import type { ContractDocs } from "../../http/openapi-contract.js";

export const tokenDocs: ContractDocs = {
  "GET /v1/tokens": {
    access: "tokens:read",
    description: "The API keys of the caller's user (an API key sees only its business's), paginated. A key shows only its `prefix` and `last4`, never the key itself.",
  },
  "POST /v1/tokens": {
    access: "tokens:write",
    jsonBody: true,
    description: [
      "Creates an API key for one business and one environment (`test` default, `live`). The answer's `key` (`sk_test_…`/`sk_live_…`) is shown this once: store it.",
      "Permissions: `dte:read`, `dte:write`, `businesses:read`, `businesses:write`, `numerations:read`, `numerations:write`, `tokens:read`, `tokens:write`, `received:read`, `received:write`, or `*` for all (API.md §2). A key creating a key can grant only permissions it holds, for its own business and environment.",
    ].join("\n"),
    examples: { pos: { summary: "A point-of-sale key that emits and reads documents", value: { name: "caja 1", permissions: ["dte:write", "dte:read"], environment: "test", business_id: "biz_01jf3k9v8m2r4t6y8a0c2e4g6j" } } },
  },
  "DELETE /v1/tokens/{id}": {
    access: "tokens:write",
    description: "Revokes a key at once, on every instance: its next request is 401. Answers `{ id, revoked: true, revoked_at }`.",
  },
};

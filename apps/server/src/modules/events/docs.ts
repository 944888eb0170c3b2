/** What the OpenAPI document says about `/v1/events` (API.md §6.6). */
import type { ContractDocs } from "../../http/openapi-contract.js";
import { EVENT_KINDS } from "./schemas.js";

export const eventDocs: ContractDocs = {
  "GET /v1/events": {
    access: "dte:read",
    description: [
      "The business's events in this environment, newest first, paginated, each with its webhook `deliveries` (`attempt`, `at`, `status_code`, `ok`).",
      "Deliveries follow Standard Webhooks: headers `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256(secret, \"<id>.<timestamp>.<body>\")>`; any 2xx within 10 s is success, otherwise retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (API.md §6.6).",
    ].join("\n"),
    query: [{ name: "event", description: "only events of this kind", schema: { type: "string", enum: [...EVENT_KINDS] } }],
  },
  "POST /v1/events/{id}/resend": {
    access: "dte:write",
    description: "Queues a new delivery of the event to the business's webhook now: 202 with the attempt number and when it is due.",
  },
};

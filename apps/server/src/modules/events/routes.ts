/**
 * Events (API.md §6.6). Listing needs `dte:read` (as API.md §2 says). Resending needs `dte:write`: it makes the
 * server call out to the business's webhook, a write-like side effect that a read-only key should not trigger.
 */
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Deps } from "../../deps.js";
import { authPlugin } from "../../http/auth.js";
import { ok, Ok, OkList, pageParameters, paginated, pagination, readPage } from "../../http/envelope.js";
import { invalidParameter } from "../../http/errors.js";
import { wakeWorkers } from "../../jobs/start-workers.js";
import { listEvents } from "./list-events.js";
import { resendEvent } from "./resend-event.js";
import { Event, EVENT_KINDS, Resend } from "./schemas.js";

const tags = ["events"];

function readKind(query: Record<string, string | undefined>): string | null {
  const kind = query.event;
  if (kind === undefined || kind === "") return null;
  if (!(EVENT_KINDS as readonly string[]).includes(kind)) throw invalidParameter("event", "enum", `event must be one of ${EVENT_KINDS.join(", ")}`);
  return kind;
}

export function eventRoutes(deps: Deps) {
  return new Elysia({ name: "timbre.events", seed: deps.instanceId, prefix: "/v1/events" })
    .use(authPlugin(deps))
    .get(
      "",
      async ({ scope, query }) => {
        const page = readPage(query);
        const { items, total } = await listEvents(deps, scope, page, readKind(query));
        return paginated(items, pagination(page.page, page.limit, total));
      },
      {
        permission: "dte:read",
        business: "read",
        response: { 200: OkList(Event) },
        detail: {
          tags,
          summary: "List events (newest first) with their webhook deliveries",
          parameters: [...pageParameters, { name: "event", in: "query", required: false, schema: { type: "string", enum: [...EVENT_KINDS] } }],
        },
      },
    )
    .post(
      "/:id/resend",
      async ({ scope, params, set }) => {
        const queued = await resendEvent(deps, scope, params.id);
        wakeWorkers(deps, "webhooks");
        set.status = 202;
        return ok(queued);
      },
      {
        permission: "dte:write",
        business: true,
        params: Type.Object({ id: Type.String() }),
        response: { 202: Ok(Resend) },
        detail: { tags, summary: "Queue a new delivery of an event now (needs dte:write)" },
      },
    );
}

import { PagePromise } from "../pagination.js";
import type { RequestOptions } from "../transport.js";
import type { EventListParams, EventResend, EventWithDeliveries, WithLastResponse } from "../types.js";
import { Resource, seg } from "./resource.js";

/** `/events`: webhook events of the business and environment, with their deliveries. */
export class Events extends Resource {
  /**
   * Lists events, newest first (`GET /events`).
   *
   * @example
   * const { data } = await client.events.list({ event: "dte.status_changed", limit: 50 });
   */
  list(params?: EventListParams, options?: RequestOptions): PagePromise<EventWithDeliveries> {
    return PagePromise.from(params, (query) => this.page<EventWithDeliveries>("events", query, options));
  }

  /**
   * Queues a new delivery of an event now (`POST /events/{id}/resend`, 202); a retry already waiting is brought
   * forward instead. 409 `CONFLICT` when the business has no webhook URL.
   *
   * @example
   * await client.events.resend("evt_…");
   */
  resend(id: string, options?: RequestOptions): Promise<WithLastResponse<EventResend>> {
    return this.call({ method: "POST", path: `events/${seg(id)}/resend`, options });
  }
}

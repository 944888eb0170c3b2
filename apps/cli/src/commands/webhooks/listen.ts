import { Flags } from "@oclif/core";
import { type EventWithDeliveries, type Timbre, webhooks } from "@timbre/sdk";
import { TimbreCommand } from "../../lib/base-command.js";

interface Forwarded {
  id: string;
  event: string;
  status?: number;
  error?: string;
}

export default class WebhooksListen extends TimbreCommand<typeof WebhooksListen> {
  static override summary = "Watch for new events and forward them to a local endpoint";
  static override description =
    "Polls GET /events and prints every new event. With --forward-to, POSTs each event's JSON body there with " +
    "Standard Webhooks headers (webhook-id, webhook-timestamp, and webhook-signature when --secret is given, " +
    "signed exactly as the server signs deliveries). Stops on Ctrl-C, or after one poll with --once.";
  static override examples = [
    "<%= config.bin %> webhooks listen",
    "<%= config.bin %> webhooks listen --forward-to http://localhost:4000/hook --secret \"$TIMBRE_WEBHOOK_SECRET\"",
  ];
  static override flags = {
    "forward-to": Flags.string({ description: "URL to POST each event to" }),
    secret: Flags.string({ description: "whsec_… secret to sign forwarded events with", env: "TIMBRE_WEBHOOK_SECRET" }),
    interval: Flags.integer({ description: "seconds between polls", default: 2, min: 1 }),
    replay: Flags.boolean({ description: "also forward the events that already exist (latest page)", default: false }),
    once: Flags.boolean({ description: "poll once and exit", default: false }),
  };

  async run() {
    this.requireBusiness();
    const client = await this.client();
    const seen = new Set<string>();
    const forwarded: Forwarded[] = [];
    if (!this.flags.replay) for (const event of await this.latest(client)) seen.add(event.id);
    if (!this.jsonEnabled()) {
      this.logToStderr(`Listening for events${this.flags["forward-to"] ? ` → ${this.flags["forward-to"]}` : ""} (Ctrl-C to stop)…`);
    }
    let stopping = false;
    process.once("SIGINT", () => { stopping = true; });
    do {
      const fresh = (await this.latest(client)).filter((event) => !seen.has(event.id)).reverse();
      for (const event of fresh) {
        seen.add(event.id);
        const result = await this.handle(event);
        forwarded.push(result);
        if (this.jsonEnabled()) this.logJson(result);
      }
      if (this.flags.once || stopping) break;
      await new Promise((resolve) => setTimeout(resolve, this.flags.interval * 1000));
    } while (!stopping);
    return this.jsonEnabled() ? undefined : { forwarded };
  }

  private async latest(client: Timbre): Promise<EventWithDeliveries[]> {
    return (await client.events.list({ limit: 100 })).data;
  }

  private async handle(event: EventWithDeliveries): Promise<Forwarded> {
    const { deliveries: _deliveries, ...delivered } = event;
    const summary = `${event.created_at}  ${event.event}  ${event.id}`;
    const target = this.flags["forward-to"];
    if (!target) {
      this.log(`${summary}\n${JSON.stringify(delivered.data)}`);
      return { id: event.id, event: event.event };
    }
    const body = JSON.stringify(delivered);
    const timestamp = new Date();
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "webhook-id": event.id,
      "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    };
    if (this.flags.secret) {
      headers["webhook-signature"] = await webhooks.sign({ id: event.id, timestamp, body, secret: this.flags.secret });
    }
    try {
      const response = await fetch(target, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
      this.log(`${summary}  → ${response.status}`);
      return { id: event.id, event: event.event, status: response.status };
    } catch (error) {
      this.log(`${summary}  → failed: ${(error as Error).message}`);
      return { id: event.id, event: event.event, error: (error as Error).message };
    }
  }
}

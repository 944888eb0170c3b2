import { Args } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";

export default class EventsResend extends TimbreCommand<typeof EventsResend> {
  static override summary = "Deliver an event to the business's webhook again, now";
  static override description =
    "Queues a delivery attempt now (POST /events/{id}/resend). A retry already waiting is brought forward instead of " +
    "adding another. The business needs a webhook URL (`timbre businesses update --webhook-url …`).";
  static override examples = ["<%= config.bin %> events resend evt_01jd…", "<%= config.bin %> events resend evt_01jd… --json"];
  static override args = { id: Args.string({ description: "event id (evt_…), as `timbre events list` shows it", required: true }) };

  async run() {
    this.requireBusiness();
    const queued = await (await this.client()).events.resend(this.args.id);
    return this.output(queued, (q) => `Queued delivery attempt ${q.attempt} of ${q.id}, due now. \`timbre events list\` shows how it went.`);
  }
}

import { Args } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { resolveBusinessId } from "../../lib/business.js";

export default class WebhooksRotateSecret extends TimbreCommand<typeof WebhooksRotateSecret> {
  static override summary = "Replace the business's webhook signing secret";
  static override description =
    "Prints the new whsec_… secret, this once. For 24 hours deliveries carry signatures with both the old and the new " +
    "secret, so a receiver can switch to the new one without missing an event.";
  static override examples = ["<%= config.bin %> webhooks rotate-secret", "<%= config.bin %> webhooks rotate-secret biz_01jd… --json"];
  static override args = { id: Args.string({ description: "business id (default: the current one)" }) };

  async run() {
    const client = await this.client();
    const id = await resolveBusinessId(client, this.args.id ?? this.flags.business, this.stored.businessId);
    const { webhook_secret } = await client.businesses.rotateWebhookSecret(id);
    return this.output({ business_id: id, webhook_secret }, (r) =>
      [
        `New webhook secret of ${r.business_id} (shown once; store it):`,
        "",
        `  ${r.webhook_secret}`,
        "",
        "For 24 h deliveries are signed with both the old and the new secret.",
      ].join("\n"),
    );
  }
}

import { Args } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { resolveBusinessId } from "../../lib/business.js";
import { renderBusiness } from "../../lib/business-flags.js";

export default class BusinessesShow extends TimbreCommand<typeof BusinessesShow> {
  static override summary = "Show one business (default: the current one)";
  static override examples = ["<%= config.bin %> businesses show biz_01jd…", "<%= config.bin %> businesses show --json"];
  static override args = { id: Args.string({ description: "business id (biz_…)" }) };

  async run() {
    const client = await this.client();
    const id = await resolveBusinessId(client, this.args.id ?? this.flags.business, this.stored.businessId);
    return this.output(await client.businesses.retrieve(id), renderBusiness);
  }
}

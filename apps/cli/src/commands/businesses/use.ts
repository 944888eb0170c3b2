import { Args } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { updateConfig } from "../../lib/config.js";

export default class BusinessesUse extends TimbreCommand<typeof BusinessesUse> {
  static override summary = "Make a business the default for session commands";
  static override examples = ["<%= config.bin %> businesses use biz_01jd…"];
  static override args = { id: Args.string({ description: "business id (biz_…)", required: true }) };

  async run() {
    const business = await (await this.client()).businesses.retrieve(this.args.id);
    updateConfig((config) => ({ ...config, businessId: business.id }));
    return this.output({ business_id: business.id, razon_social: business.razon_social }, () => `Now acting for ${business.razon_social} (${business.id}).`);
  }
}

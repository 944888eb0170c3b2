import { Args } from "@oclif/core";
import { CommandFailure, EXIT, TimbreCommand } from "../../lib/base-command.js";
import { resolveBusinessId } from "../../lib/business.js";
import { businessFieldFlags, businessFieldsFromFlags, renderBusiness } from "../../lib/business-flags.js";

export default class BusinessesUpdate extends TimbreCommand<typeof BusinessesUpdate> {
  static override summary = "Change fields of a business (the RUT cannot change)";
  static override examples = [
    "<%= config.bin %> businesses update biz_01jd… --webhook-url https://example.cl/hooks/timbre",
    '<%= config.bin %> businesses update --direccion "Nueva 456" --comuna Ñuñoa',
  ];
  static override args = { id: Args.string({ description: "business id (default: the current one)" }) };
  static override flags = { ...businessFieldFlags };

  async run() {
    const fields = businessFieldsFromFlags(this.flags);
    if (Object.keys(fields).length === 0) {
      const message = "Nothing to update: pass at least one field flag (see --help).";
      throw new CommandFailure(message, { code: "MISSING_FLAGS", message }, EXIT.usage);
    }
    const client = await this.client();
    const id = await resolveBusinessId(client, this.args.id ?? this.flags.business, this.stored.businessId);
    return this.output(await client.businesses.update(id, fields), (b) => `Updated ${b.id}.\n\n${renderBusiness(b)}`);
  }
}

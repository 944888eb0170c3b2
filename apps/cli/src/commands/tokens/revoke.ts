import { Args } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";

export default class TokensRevoke extends TimbreCommand<typeof TokensRevoke> {
  static override summary = "Revoke an API key immediately";
  static override examples = ["<%= config.bin %> tokens revoke key_01jd…"];
  static override args = { id: Args.string({ description: "key id (key_…)", required: true }) };

  async run() {
    const result = await (await this.client()).tokens.revoke(this.args.id);
    return this.output(result, (r) => `Revoked ${r.id} at ${r.revoked_at}.`);
  }
}

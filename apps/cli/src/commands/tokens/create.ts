import { Flags } from "@oclif/core";
import { PERMISSIONS, type Permission } from "@timbre/sdk";
import { TimbreCommand } from "../../lib/base-command.js";
import { renderFields } from "../../lib/table.js";

const GRANTS = [...PERMISSIONS, "*"] as const;

export default class TokensCreate extends TimbreCommand<typeof TokensCreate> {
  static override summary = "Create an API key (shown once)";
  static override description = "The key is for --business (or the default business) and --environment (default test).";
  static override examples = [
    "<%= config.bin %> tokens create --name pos --permission dte:write --permission dte:read",
    "<%= config.bin %> tokens create --name ci --permission '*' --environment test --json",
  ];
  static override flags = {
    name: Flags.string({ description: "a name to recognise the key by", required: true }),
    permission: Flags.option({ options: GRANTS, description: "permission to grant (repeatable)", multiple: true, required: true })(),
  };

  async run() {
    const client = await this.client();
    const businessId = this.flags.business ?? this.stored.businessId;
    const key = await client.tokens.create({
      name: this.flags.name,
      permissions: this.flags.permission as Permission[],
      ...(this.flags.environment ? { environment: this.flags.environment } : {}),
      ...(businessId ? { business_id: businessId } : {}),
    });
    return this.output(key, (k) =>
      `${renderFields({ id: k.id, name: k.name, environment: k.environment, business: k.business_id, permissions: k.permissions.join(", ") })}\n\n` +
      `Key (shown only now, store it safely):\n${k.key}`,
    );
  }
}

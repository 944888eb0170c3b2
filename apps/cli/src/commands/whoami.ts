import { TimbreCommand } from "../lib/base-command.js";
import { renderFields } from "../lib/table.js";

export default class Whoami extends TimbreCommand<typeof Whoami> {
  static override summary = "Show who the current credential is";
  static override examples = ["<%= config.bin %> whoami", "<%= config.bin %> whoami --json"];

  async run() {
    const me = await (await this.client()).auth.me();
    return this.output(me, () =>
      renderFields({
        user: `${me.user.nombre} <${me.user.email}> (${me.user.id})`,
        auth: me.auth.type,
        ...(me.auth.key
          ? { key: `${me.auth.key.name} (${me.auth.key.id})`, business: me.auth.key.business_id, environment: me.auth.key.environment, permissions: me.auth.key.permissions.join(", ") }
          : { business: this.flags.business ?? this.stored.businessId ?? "(none: `timbre businesses use <id>`)" }),
        api: this.apiUrl(),
      }),
    );
  }
}

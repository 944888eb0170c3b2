import { Flags } from "@oclif/core";
import type { BusinessCreateParams } from "@timbre/sdk";
import { CommandFailure, EXIT, TimbreCommand } from "../../lib/base-command.js";
import { businessFieldFlags, businessFieldsFromFlags, renderBusiness } from "../../lib/business-flags.js";
import { readJsonFile } from "../../lib/files.js";

export default class BusinessesCreate extends TimbreCommand<typeof BusinessesCreate> {
  static override summary = "Register a business (emisor)";
  static override examples = [
    '<%= config.bin %> businesses create --rut 76192083-9 --razon-social "Café Austral SpA" --giro Cafetería --acteco 561000 --direccion "Av. Providencia 1234" --comuna Providencia',
    "<%= config.bin %> businesses create --file business.json --json",
  ];
  static override flags = {
    rut: Flags.string({ description: "RUT of the business" }),
    file: Flags.string({ char: "f", description: "JSON file with the business fields (flags override it)" }),
    ...businessFieldFlags,
  };

  async run() {
    const fromFile = this.flags.file ? (readJsonFile(this.flags.file) as Partial<BusinessCreateParams>) : {};
    const params = { ...fromFile, ...businessFieldsFromFlags(this.flags), ...(this.flags.rut ? { rut: this.flags.rut } : {}) };
    const missing = (["rut", "razon_social", "giro", "acteco", "direccion", "comuna"] as const).filter((k) => params[k] === undefined);
    if (missing.length > 0) {
      const message = `Missing ${missing.map((k) => `--${k.replace("_", "-")}`).join(", ")}.`;
      throw new CommandFailure(message, { code: "MISSING_FLAGS", message, details: { missing } }, EXIT.usage);
    }
    const business = await (await this.client()).businesses.create(params as BusinessCreateParams);
    return this.output(business, (b) => `Created ${b.id}. Make it the default with \`timbre businesses use ${b.id}\`.\n\n${renderBusiness(b)}`);
  }
}

import { Args, Flags } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { readInput } from "../../lib/files.js";
import { renderImport } from "../../lib/received-view.js";

export default class ReceivedImport extends TimbreCommand<typeof ReceivedImport> {
  static override summary = "Import an EnvioDTE a supplier sent you (the XML attached to their mail)";
  static override description =
    "The file is sent byte for byte. Each document is verified (signature, timbre, CAF, addressed to you) and kept; the supplier gets the acuse de recibo. An envelope that is not well-formed, fails its schema or signature, or is addressed to another RUT is refused (ENVELOPE_INVALID) and nothing is kept.";
  static override examples = ["<%= config.bin %> received import EnvioDTE_76192083-9.xml", "<%= config.bin %> received import envio.xml --reply-to dte@proveedor.cl --json"];
  static override args = { file: Args.string({ description: "the EnvioDTE XML file", required: true }) };
  static override flags = {
    "reply-to": Flags.string({ description: "where the answers go when the SII's list has no address for the supplier (one address)" }),
  };

  async run() {
    this.requireBusiness();
    const xml = readInput(this.args.file);
    const replyTo = this.flags["reply-to"];
    const result = await (await this.client()).received.import({ xml, ...(replyTo ? { reply_to: replyTo } : {}) });
    return this.output(result, renderImport);
  }
}

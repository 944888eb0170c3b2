import { Args, Flags } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { chooseOutput, writeOutput } from "../../lib/files.js";

export default class ReceivedXml extends TimbreCommand<typeof ReceivedXml> {
  static override summary = "Download a received DTE exactly as the supplier sent it";
  static override description = "Writes to stdout unless -o FILE is given (never into the current folder unasked).";
  static override examples = ["<%= config.bin %> received xml rcv_01jd… > recibida.xml", "<%= config.bin %> received xml rcv_01jd… -o recibida.xml"];
  static override args = { id: Args.string({ description: "received document id (rcv_…)", required: true }) };
  static override flags = {
    output: Flags.string({ char: "o", description: "file to write, - for stdout [default: stdout]" }),
  };

  async run() {
    this.requireBusiness();
    const path = chooseOutput(this.flags.output, { binary: false, json: this.jsonEnabled() });
    const xml = await (await this.client()).received.xml(this.args.id);
    writeOutput(path, xml);
    const result = { id: this.args.id, path, bytes: xml.byteLength };
    if (path === "-") return result;
    return this.output(result, (r) => `Wrote ${r.path} (${r.bytes} bytes).`);
  }
}

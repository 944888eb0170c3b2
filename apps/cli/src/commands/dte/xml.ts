import { Args, Flags } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { chooseOutput, writeOutput } from "../../lib/files.js";

export default class DteXml extends TimbreCommand<typeof DteXml> {
  static override summary = "Download the signed XML of a document (exact stored bytes, ISO-8859-1)";
  static override description = "Writes to stdout unless -o FILE is given (never into the current folder unasked).";
  static override examples = [
    "<%= config.bin %> dte xml dte_01jd… > dte.xml",
    "<%= config.bin %> dte xml dte_01jd… -o dte.xml",
    "<%= config.bin %> dte xml dte_01jd… --envio -o envio.xml",
  ];
  static override args = { id: Args.string({ description: "document id (dte_…)", required: true }) };
  static override flags = {
    output: Flags.string({ char: "o", description: "file to write, - for stdout [default: stdout]" }),
    envio: Flags.boolean({ description: "the whole signed envelope that was uploaded", default: false }),
  };

  async run() {
    this.requireBusiness();
    const xml = await (await this.client()).dte.xml(this.args.id, this.flags.envio ? { envio: true } : {});
    const path = chooseOutput(this.flags.output, { binary: false, json: this.jsonEnabled() });
    writeOutput(path, xml);
    const result = { id: this.args.id, path, bytes: xml.byteLength };
    if (path === "-") return result;
    return this.output(result, (r) => `Wrote ${r.path} (${r.bytes} bytes).`);
  }
}

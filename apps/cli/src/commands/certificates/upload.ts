import { basename } from "node:path";
import { Flags } from "@oclif/core";
import { TimbreCommand } from "../../lib/base-command.js";
import { resolveBusinessId } from "../../lib/business.js";
import { renderBusiness } from "../../lib/business-flags.js";
import { readInput } from "../../lib/files.js";
import { prompt } from "../../lib/prompt.js";

export default class CertificatesUpload extends TimbreCommand<typeof CertificatesUpload> {
  static override summary = "Upload the business's signing certificate (.p12/.pfx)";
  static override description = "The password opens the file once on the server and is never stored.";
  static override examples = [
    "<%= config.bin %> certificates upload --file firma.p12",
    "<%= config.bin %> certificates upload --file firma.pfx --password \"$P12_PASSWORD\" --business biz_01jd…",
  ];
  static override flags = {
    file: Flags.string({ char: "f", description: "PKCS#12 file", required: true }),
    password: Flags.string({ description: "certificate password (prompted when omitted)", env: "TIMBRE_CERT_PASSWORD" }),
  };

  async run() {
    const file = readInput(this.flags.file);
    const password = this.flags.password ?? (await prompt("Certificate password: ", { hidden: true }));
    const client = await this.client();
    const id = await resolveBusinessId(client, this.flags.business, this.stored.businessId);
    const business = await client.businesses.certificate.upload({ id, file, password, filename: basename(this.flags.file) });
    return this.output(business, (b) => `Certificate stored for ${b.razon_social}.\n\n${renderBusiness(b)}`);
  }
}

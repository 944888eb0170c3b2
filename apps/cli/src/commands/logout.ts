import { TimbreCommand } from "../lib/base-command.js";
import { updateConfig } from "../lib/config.js";

export default class Logout extends TimbreCommand<typeof Logout> {
  static override summary = "Forget the stored session and API key";
  static override examples = ["<%= config.bin %> logout"];

  async run() {
    const hadCredential = Boolean(this.stored.session || this.stored.apiKey);
    updateConfig(({ session: _s, apiKey: _k, ...config }) => config);
    const result = { logged_out: hadCredential };
    return this.output(result, () =>
      hadCredential ? "Logged out." : "Nothing stored; you were not logged in." + (process.env.TIMBRE_API_KEY ? " (TIMBRE_API_KEY is still set in your environment.)" : ""),
    );
  }
}

import { Flags } from "@oclif/core";
import { type Business, Timbre } from "@timbre/sdk";
import { TimbreCommand } from "../lib/base-command.js";
import { configPath, updateConfig } from "../lib/config.js";
import { prompt } from "../lib/prompt.js";

export default class Login extends TimbreCommand<typeof Login> {
  static override summary = "Log in with email and password (or store an API key)";
  static override description =
    "Stores the session in $XDG_CONFIG_HOME/timbre/config.json (default ~/.config/timbre) with mode 0600. " +
    "TIMBRE_API_KEY, when set, takes precedence over anything stored.";
  static override examples = [
    "<%= config.bin %> login --email ana@example.cl",
    "<%= config.bin %> login --email ana@example.cl --password \"$TIMBRE_PASSWORD\" --api-url https://api.example.cl/v1",
    "<%= config.bin %> login --api-key sk_test_…",
  ];
  static override flags = {
    email: Flags.string({ description: "account email" }),
    password: Flags.string({ description: "account password (prompted when omitted)", env: "TIMBRE_PASSWORD" }),
    "api-key": Flags.string({ description: "store this API key instead of a session", exclusive: ["email", "password"] }),
  };

  async run() {
    const apiUrl = this.apiUrl();
    const client = new Timbre({ baseUrl: apiUrl });
    const keepUrl = this.flags["api-url"] ? { apiUrl } : {};

    if (this.flags["api-key"]) {
      const me = await client.withOptions({ apiKey: this.flags["api-key"] }).auth.me();
      const apiKey = this.flags["api-key"];
      const path = updateConfig(({ session: _s, ...config }) => ({ ...config, ...keepUrl, apiKey }));
      const result = { user: me.user, auth: me.auth, api_url: apiUrl, config_path: path };
      return this.output(result, () => `Stored API key for ${me.user.email} (business ${me.auth.key?.business_id ?? "?"}) in ${path}`);
    }

    const email = this.flags.email ?? (await prompt("Email: "));
    const password = this.flags.password ?? (await prompt("Password: ", { hidden: true }));
    const session = await client.auth.login({ email, password });
    const business = await this.defaultBusiness(client.withOptions({ accessToken: session.access_token }));
    const path = updateConfig(({ apiKey: _k, businessId: _b, ...config }) => ({
      ...config,
      ...keepUrl,
      ...(business ? { businessId: business.id } : {}),
      session: {
        accessToken: session.access_token,
        refreshToken: session.refresh_token,
        expiresAt: new Date(Date.now() + session.expires_in * 1000).toISOString(),
        email: session.user.email,
      },
    }));
    const result = { user: session.user, api_url: apiUrl, config_path: path, business_id: business?.id ?? null };
    const envNote = process.env.TIMBRE_API_KEY ? "\nNote: TIMBRE_API_KEY is set and takes precedence over this session." : "";
    const businessNote = business
      ? `\nActing for ${business.razon_social} (${business.id}).`
      : "\nChoose the business to act for with `timbre businesses use <id>` (`timbre businesses list`).";
    return this.output(result, () => `Logged in as ${session.user.email} (${apiUrl}). Session stored in ${configPath()}.${businessNote}${envNote}`);
  }

  /**
   * The business the session acts for: the one chosen before when this account still has it (logging in again
   * keeps the choice), else the account's only business; none when it has several (or none) — a business chosen
   * under another account is never carried over.
   */
  private async defaultBusiness(client: Timbre): Promise<Business | null> {
    const previous = this.stored.businessId;
    if (previous) {
      const kept = await client.businesses.retrieve(previous).catch(() => null);
      if (kept) return kept;
    }
    const page = await client.businesses.list({ limit: 2 });
    return page.data.length === 1 ? (page.data[0] ?? null) : null;
  }
}

/**
 * Base of every command: global flags, `--json`, the SDK client built from flags/env/stored session,
 * and the one place that turns SDK errors into messages that say what to do, with exit codes:
 * 1 API or input error, 2 usage, 3 authentication/permission, 4 not found, 5 cannot reach the API.
 */
import { Command, Errors, Flags, type Interfaces } from "@oclif/core";
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  DEFAULT_BASE_URL,
  normalizeApiUrl,
  NotFoundError,
  PermissionError,
  RateLimitError,
  Timbre,
  TimbreError,
  ValidationError,
} from "@timbre/sdk";
import { loadConfig, type StoredConfig, updateConfig } from "./config.js";

export type FlagsOf<T extends typeof Command> = Interfaces.InferredFlags<(typeof TimbreCommand)["baseFlags"] & T["flags"]>;
export type ArgsOf<T extends typeof Command> = Interfaces.InferredArgs<T["args"]>;

export const EXIT = { error: 1, usage: 2, auth: 3, notFound: 4, connection: 5 } as const;

const LOGIN_HINT = "Run `timbre login` or set TIMBRE_API_KEY.";

/** A failure already explained for humans, carrying the machine-readable form for `--json`. */
export class CommandFailure extends Errors.CLIError {
  readonly exitCode: number;
  constructor(
    message: string,
    readonly info: { code: string; message: string; hint?: string; status?: number; request_id?: string; details?: unknown },
    exit: number,
  ) {
    super(message, { exit, ...(info.hint ? { suggestions: [info.hint] } : {}) });
    this.exitCode = exit;
  }
}

export abstract class TimbreCommand<T extends typeof Command> extends Command {
  static override enableJsonFlag = true;

  static override baseFlags = {
    "api-url": Flags.string({
      description: `API root, with or without /v1 (http://localhost:3000 works) [default: stored by login, else ${DEFAULT_BASE_URL}]`,
      env: "TIMBRE_API_URL",
      helpGroup: "GLOBAL",
    }),
    business: Flags.string({
      description: "business (biz_…) to act for with a session; default set by `timbre businesses use`",
      env: "TIMBRE_BUSINESS_ID",
      helpGroup: "GLOBAL",
    }),
    environment: Flags.option({
      description: "environment for session credentials",
      options: ["test", "live"] as const,
      env: "TIMBRE_ENVIRONMENT",
      helpGroup: "GLOBAL",
    })(),
  };

  protected flags!: FlagsOf<T>;
  protected args!: ArgsOf<T>;
  protected stored: StoredConfig = {};

  override async init(): Promise<void> {
    await super.init();
    const { args, flags } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof TimbreCommand).baseFlags,
      enableJsonFlag: this.ctor.enableJsonFlag,
      args: this.ctor.args,
      strict: this.ctor.strict,
    });
    this.flags = flags as FlagsOf<T>;
    this.args = args as ArgsOf<T>;
    this.stored = loadConfig();
  }

  /** The API root in force, with or without `/v1` as given, made the SDK's one form (`normalizeApiUrl`). */
  protected apiUrl(): string {
    return normalizeApiUrl(this.flags["api-url"] ?? this.stored.apiUrl ?? DEFAULT_BASE_URL);
  }

  /**
   * The SDK client for this invocation: TIMBRE_API_KEY, else the stored key, else the stored session
   * (refreshed first when its access token is about to expire).
   */
  protected async client({ auth = true }: { auth?: boolean } = {}): Promise<Timbre> {
    const baseUrl = this.apiUrl();
    const businessId = this.flags.business ?? this.stored.businessId;
    const environment = this.flags.environment ?? this.stored.environment;
    const common = { baseUrl, ...(businessId ? { businessId } : {}), ...(environment ? { environment } : {}) };
    const apiKey = process.env.TIMBRE_API_KEY || this.stored.apiKey;
    if (apiKey) return new Timbre({ ...common, apiKey });
    const session = this.stored.session;
    if (!session) {
      if (!auth) return new Timbre(common);
      throw new CommandFailure("Not logged in.", { code: "NOT_LOGGED_IN", message: "Not logged in", hint: LOGIN_HINT }, EXIT.auth);
    }
    if (Date.parse(session.expiresAt) - Date.now() > 60_000) return new Timbre({ ...common, accessToken: session.accessToken });
    try {
      const next = await new Timbre({ baseUrl }).auth.refresh({ refresh_token: session.refreshToken });
      const refreshed = {
        accessToken: next.access_token,
        refreshToken: next.refresh_token,
        expiresAt: new Date(Date.now() + next.expires_in * 1000).toISOString(),
        email: session.email,
      };
      updateConfig((config) => ({ ...config, session: refreshed }));
      return new Timbre({ ...common, accessToken: refreshed.accessToken });
    } catch (error) {
      if (error instanceof AuthenticationError) {
        updateConfig(({ session: _dropped, ...config }) => config);
        const message = "Your session has expired.";
        throw new CommandFailure(message, { code: "SESSION_EXPIRED", message, hint: LOGIN_HINT }, EXIT.auth);
      }
      throw error;
    }
  }

  /** Whether the caller uses a session (which needs `--business` on /dte and /events). */
  protected usesSession(): boolean {
    return !(process.env.TIMBRE_API_KEY || this.stored.apiKey) && this.stored.session !== undefined;
  }

  /** Fails early when a session has no business to act for. */
  protected requireBusiness(): void {
    if (this.usesSession() && !(this.flags.business ?? this.stored.businessId)) {
      const hint = "Pick one with `timbre businesses use <id>` or pass --business biz_… (or use an API key).";
      throw new CommandFailure("This command needs a business.", { code: "BUSINESS_REQUIRED", message: "business required", hint }, EXIT.usage);
    }
  }

  /** Prints `human()` unless --json; returns the data for oclif's --json output. */
  protected output<D>(data: D, human: (data: D) => string): D {
    if (!this.jsonEnabled()) this.log(human(data));
    return data;
  }

  protected override async catch(error: Error & { exitCode?: number }): Promise<unknown> {
    return super.catch(this.explain(error));
  }

  protected override toErrorJson(error: unknown): unknown {
    if (error instanceof CommandFailure) return { error: error.info };
    return super.toErrorJson(error);
  }

  /** Turns an SDK error into a message that says what to do next; a bad command line into a usage failure. */
  private explain(error: Error & { exitCode?: number }): Error & { exitCode?: number } {
    if (error instanceof Errors.CLIError && !(error instanceof CommandFailure) && "parse" in error) {
      // oclif's parse errors carry the whole parser context, which `--json` would print (thousands of lines)
      const message = error.message.replace(/^The following errors? occurred:\s*/, "").replace(/\nSee more help with --help$/, "").trim();
      return new CommandFailure(error.message, { code: "USAGE", message }, EXIT.usage);
    }
    if (!(error instanceof TimbreError)) return error;
    const base = {
      code: error.code,
      message: error.message,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.requestId ? { request_id: error.requestId } : {}),
      ...(error.details ? { details: error.details } : {}),
    };
    const fail = (message: string, exit: number, hint?: string) =>
      new CommandFailure(message, { ...base, ...(hint ? { hint } : {}) }, exit);
    const ref = error.requestId ? ` (request ${error.requestId})` : "";

    if (error instanceof AuthenticationError) {
      if (error.code === "INVALID_CREDENTIALS") return fail("Wrong email or password.", EXIT.auth, "Check them and run `timbre login` again.");
      return fail(`Not authenticated: ${error.message}.`, EXIT.auth, LOGIN_HINT);
    }
    if (error instanceof PermissionError) {
      const permission = error.requiredPermission;
      return fail(
        `Permission denied${permission ? `: this credential lacks \`${permission}\`` : ""}.`,
        EXIT.auth,
        `Use a key that has it (\`timbre tokens create --permission ${permission ?? "…"}\`) or log in with \`timbre login\`.`,
      );
    }
    if (error instanceof NotFoundError) {
      return fail(`Not found: ${error.message}${ref}.`, EXIT.notFound, "Check the id: it must belong to your business and environment (--environment).");
    }
    if (error instanceof ValidationError) {
      // One problem: the server's message says it all. Several: a count, then each once (field, message, reason).
      const issues = error.issues.length > 1 ? error.issues.map((issue) => `  • ${issue.field || "(request)"}: ${issue.message || issue.reason} (${issue.reason})`) : [];
      const headline = issues.length > 0 ? `The request has ${issues.length} problems [${error.code}]:` : `${error.message} [${error.code}]`;
      return fail([headline, ...issues].join("\n"), EXIT.error, hintFor(error.code));
    }
    if (error instanceof ConflictError) return fail(`Conflict: ${error.message} [${error.code}]${ref}.`, EXIT.error);
    if (error instanceof RateLimitError) {
      return fail(`Rate limited by the API.`, EXIT.error, `Wait ${error.retryAfter ?? 60} s and try again.`);
    }
    if (error instanceof ConnectionError) {
      return fail(`${error.message} (${this.apiUrl()})`, EXIT.connection, "Is the server running? Set --api-url or TIMBRE_API_URL.");
    }
    if (error instanceof ApiError) {
      return fail(`The API failed (HTTP ${error.status ?? "?"}, ${error.code})${ref}: ${error.message}`, EXIT.error, "Try again; if it persists, report the request id.");
    }
    return fail(`${error.message} [${error.code}]${ref}`, EXIT.error);
  }
}

function hintFor(code: string): string | undefined {
  switch (code) {
    case "CERTIFICATE_REQUIRED":
      return "Upload one with `timbre certificates upload --file firma.p12`.";
    case "FOLIOS_EXHAUSTED":
      return "Upload a CAF with `timbre numerations upload --file caf.xml` (sandbox: `timbre numerations upload --sandbox --tipo 33`).";
    case "ENVELOPE_INVALID":
      return "Nothing was kept. The reason (format, schema, signature, not_addressed: the envelope is for another RUT) is in --json's details.";
    case "CERTIFICATE_INVALID":
      return "Check the .p12 file and its password, and that it has not expired.";
    default:
      return undefined;
  }
}

import type { Timbre } from "@timbre/sdk";
import { CommandFailure, EXIT } from "./base-command.js";

/**
 * The business a command acts on: explicit flag or argument, else the stored default, else the
 * API key's own business.
 */
export async function resolveBusinessId(client: Timbre, explicit: string | undefined, stored: string | undefined): Promise<string> {
  if (explicit) return explicit;
  if (stored) return stored;
  const me = await client.auth.me();
  if (me.auth.key?.business_id) return me.auth.key.business_id;
  const hint = "Pass --business biz_… or pick a default with `timbre businesses use <id>`.";
  throw new CommandFailure("Which business?", { code: "BUSINESS_REQUIRED", message: "business required", hint }, EXIT.usage);
}

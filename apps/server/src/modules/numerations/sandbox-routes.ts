import { Elysia } from "elysia";
import type { Deps } from "../../deps.js";
import { authPlugin } from "../../http/auth.js";
import { ok, Ok } from "../../http/envelope.js";
import { issueSandboxNumeration } from "./issue-sandbox-numeration.js";
import { Numeration, SandboxNumerationBody } from "./schemas.js";

/**
 * `POST /v1/sandbox/numerations` (API.md §9). Registered only when `SII_MODE=sandbox`: otherwise the route does
 * not exist (404 NOT_FOUND, whatever the credential).
 */
export function sandboxNumerationRoutes(deps: Deps) {
  const app = new Elysia({ name: "timbre.sandbox-numerations", seed: deps.instanceId, prefix: "/v1/sandbox" });
  if (deps.config.siiMode !== "sandbox") return app;
  return app.use(authPlugin(deps)).post(
    "/numerations",
    async ({ scope, body, set }) => {
      const created = await issueSandboxNumeration(deps, scope, body);
      set.status = 201;
      return ok(created);
    },
    {
      permission: "numerations:write",
      business: true,
      parse: "json",
      body: SandboxNumerationBody,
      response: { 201: Ok(Numeration) },
      detail: { tags: ["sandbox"], summary: "Issue a sandbox CAF for the caller's business (test environment, SII_MODE=sandbox only)" },
    },
  );
}

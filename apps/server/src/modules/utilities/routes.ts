import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Deps } from "../../deps.js";
import { authPlugin } from "../../http/auth.js";
import { ok, Ok } from "../../http/envelope.js";
import { ApiError } from "../../http/errors.js";
import { checkHealth } from "./check-health.js";
import { validateRut } from "./validate-rut.js";

const RutBody = Type.Object({ rut: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

const Health = Type.Object({
  status: Type.String(),
  version: Type.String(),
  uptime_s: Type.Integer(),
  checks: Type.Object({ database: Type.String(), tax_authority: Type.String() }),
});

const RutValidation = Type.Object({
  valid: Type.Boolean(),
  rut: Type.Union([Type.String(), Type.Null()]),
  formateado: Type.Union([Type.String(), Type.Null()]),
  dv_esperado: Type.Union([Type.String(), Type.Null()]),
});

export function utilityRoutes(deps: Deps, ping: () => Promise<void>) {
  return new Elysia({ name: "timbre.utilities", seed: deps.instanceId, prefix: "/v1" })
    .use(authPlugin(deps))
    .get(
      "/health",
      async () => {
        const health = await checkHealth(deps, ping);
        if (health.status !== "ok") throw new ApiError("UNAVAILABLE", "the database is unavailable", { ...health });
        return ok(health);
      },
      { detail: { tags: ["utilities"], summary: "Health check (no key, not rate limited)" }, response: { 200: Ok(Health) } },
    )
    .post("/rut/validate", ({ body }) => ok(validateRut(body.rut)), {
      permission: "any",
      parse: "json",
      body: RutBody,
      response: { 200: Ok(RutValidation) },
      detail: { tags: ["utilities"], summary: "Validate a RUT" },
    });
}

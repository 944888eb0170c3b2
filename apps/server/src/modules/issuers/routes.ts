/** The SII's list of authorised electronic issuers (API.md §14): `GET /issuers/{rut}`, `dte:read`. */
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Deps } from "../../deps.js";
import { authPlugin } from "../../http/auth.js";
import { ok, Ok } from "../../http/envelope.js";
import { findIssuer } from "./find-issuer.js";
import { IssuerSchema } from "./schemas.js";

const RutParams = Type.Object({ rut: Type.String({ maxLength: 64 }) });

export function issuerRoutes(deps: Deps) {
  return new Elysia({ name: "timbre.issuers", seed: deps.instanceId, prefix: "/v1/issuers" })
    .use(authPlugin(deps))
    .get("/:rut", async ({ scope, params }) => ok(await findIssuer(deps, scope, decodeURIComponent(params.rut))), {
      permission: "dte:read",
      business: "read",
      params: RutParams,
      response: { 200: Ok(IssuerSchema) },
      detail: { tags: ["issuers"], summary: "One issuer of the SII's list of authorised electronic issuers" },
    });
}

import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Deps } from "../../deps.js";
import { authPlugin } from "../../http/auth.js";
import { ok, Ok, OkList, pageParameters, paginated, readPage, pagination } from "../../http/envelope.js";
import { createApiKey } from "./create-api-key.js";
import { listApiKeys } from "./list-api-keys.js";
import { revokeApiKey } from "./revoke-api-key.js";
import { CreatedKey, CreateKeyBody, Key, Revoked } from "./schemas.js";

const tags = ["tokens"];

export function tokenRoutes(deps: Deps) {
  return new Elysia({ name: "timbre.tokens", seed: deps.instanceId, prefix: "/v1/tokens" })
    .use(authPlugin(deps))
    .get(
      "",
      async ({ auth, query }) => {
        const page = readPage(query);
        const { items, total } = await listApiKeys(deps, auth, page);
        return paginated(items, pagination(page.page, page.limit, total));
      },
      { permission: "tokens:read", response: { 200: OkList(Key) }, detail: { tags, summary: "List API keys", parameters: pageParameters } },
    )
    .post(
      "",
      async ({ auth, body, set }) => {
        const created = await createApiKey(deps, auth, body);
        set.status = 201;
        return ok(created);
      },
      { permission: "tokens:write", parse: "json", body: CreateKeyBody, response: { 201: Ok(CreatedKey) }, detail: { tags, summary: "Create an API key (shown once)" } },
    )
    .delete("/:id", async ({ auth, params }) => ok(await revokeApiKey(deps, auth, params.id)), {
      permission: "tokens:write",
      params: Type.Object({ id: Type.String() }),
      response: { 200: Ok(Revoked) },
      detail: { tags, summary: "Revoke an API key" },
    });
}

import { Elysia } from "elysia";
import type { Deps } from "../../deps.js";
import { authPlugin } from "../../http/auth.js";
import { ok, Ok } from "../../http/envelope.js";
import { getMe } from "./get-me.js";
import { loginUser } from "./login-user.js";
import { refreshSession } from "./refresh-session.js";
import { registerUser } from "./register-user.js";
import { LoginBody, Me, RefreshBody, RegisterBody, Session } from "./schemas.js";

const tags = ["auth"];

export function authRoutes(deps: Deps) {
  return new Elysia({ name: "timbre.auth-routes", seed: deps.instanceId, prefix: "/v1/auth" })
    .use(authPlugin(deps))
    .post(
      "/register",
      async ({ body, set }) => {
        const session = await registerUser(deps, body);
        set.status = 201;
        return ok(session);
      },
      { parse: "json", body: RegisterBody, response: { 201: Ok(Session) }, detail: { tags, summary: "Create an account", security: [] } },
    )
    .post("/login", async ({ body }) => ok(await loginUser(deps, body)), {
      parse: "json",
      body: LoginBody,
      response: { 200: Ok(Session) },
      detail: { tags, summary: "Sign in with email and password", security: [] },
    })
    .post("/refresh", async ({ body }) => ok(await refreshSession(deps, body.refresh_token)), {
      parse: "json",
      body: RefreshBody,
      response: { 200: Ok(Session) },
      detail: { tags, summary: "Rotate the refresh token", security: [] },
    })
    .get("/me", async ({ auth }) => ok(await getMe(deps, auth)), {
      permission: "any",
      response: { 200: Ok(Me) },
      detail: { tags, summary: "The caller: user and credential" },
    });
}

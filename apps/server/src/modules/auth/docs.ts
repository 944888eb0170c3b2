/** What the OpenAPI document says about `/v1/auth` (API.md §2, §6.1). */
import type { ContractDocs } from "../../http/openapi-contract.js";

const SESSION = "Answers `{ user, access_token, refresh_token, token_type: \"Bearer\", expires_in }`: the access token (JWT, 15 min) goes in `Authorization: Bearer …`; the refresh token (30 days) buys a new pair at `POST /auth/refresh`.";

export const authDocs: ContractDocs = {
  "POST /v1/auth/register": {
    access: "public",
    jsonBody: true,
    description: `Creates a user (the person using the dashboard or the CLI) and signs them in. ${SESSION} An email already registered is 409 \`CONFLICT\` (API.md §6.1).`,
    errors: ["CONFLICT"],
    examples: { ana: { summary: "A new user", value: { email: "ana@cafe-austral.cl", password: "una clave bien larga", nombre: "Ana Pérez" } } },
  },
  "POST /v1/auth/login": {
    access: "public",
    jsonBody: true,
    description: `Signs in with email and password. ${SESSION} A wrong password and an unknown email both answer 401 \`INVALID_CREDENTIALS\`; after 10 failures for one email in 15 minutes, 429 (API.md §6.1).`,
    errors: ["INVALID_CREDENTIALS"],
    examples: { ana: { summary: "Sign in", value: { email: "ana@cafe-austral.cl", password: "una clave bien larga" } } },
  },
  "POST /v1/auth/refresh": {
    access: "public",
    jsonBody: true,
    description: "Trades a refresh token for a new pair. Refresh tokens rotate: the one sent stops working, and presenting a used one again revokes every token of that sign-in (401 `UNAUTHORIZED`).",
    errors: ["UNAUTHORIZED"],
    examples: { refresh: { summary: "Rotate", value: { refresh_token: "rt_9bY2kQ…" } } },
  },
  "GET /v1/auth/me": {
    access: "any",
    description: "Who is calling: the user, and the credential (`api_key` with its business, environment and permissions, or `session`).",
  },
};

/**
 * `GET /v1/openapi.json` (the contract: the route schemas completed with each module's docs, `openapi-contract.ts`)
 * and `GET /v1/docs` (Swagger UI over it, its scripts served by `docs-assets.ts`). API.md §6.8.
 */
import { toOpenAPISchema } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { DOCS_ASSETS_PATH } from "./docs-assets.js";
import { completeContract, type ContractDocs } from "./openapi-contract.js";

export const OPENAPI_PATH = "/v1/openapi.json";

export interface ApiInfo {
  version: string;
  description: string;
}

const INTRODUCTION = [
  "Chilean electronic tax documents (DTE): emit facturas, boletas, notes, guías and exports, signed and sent to the SII.",
  "",
  "Every JSON answer is `{ success: true, data, pagination? }` or `{ success: false, error: { code, message, details?, request_id } }` (API.md §1, §3).",
  "Authenticate with `X-API-Key: sk_test_…` (or `Authorization: Bearer sk_…`), or a session's `Authorization: Bearer <access_token>` plus `X-Business-Id` (API.md §2).",
  "Every POST takes an `Idempotency-Key` (API.md §5); lists take `page` and `limit` (API.md §6.9); 100 requests a minute per key (API.md §4).",
].join("\n");

function page(title: string): string {
  const options = JSON.stringify({ url: OPENAPI_PATH, dom_id: "#swagger-ui" });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${title}</title>
<link rel="stylesheet" href="${DOCS_ASSETS_PATH}/swagger-ui.css" />
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_ASSETS_PATH}/swagger-ui-bundle.js"></script>
<script>window.onload = () => { window.ui = SwaggerUIBundle(${options}); };</script>
</body>
</html>`;
}

/** The whole document for the routes registered in `app`'s tree. */
export function buildOpenApiDocument(app: Elysia, info: ApiInfo, docs: ContractDocs): Record<string, unknown> {
  const generated = toOpenAPISchema(app as never, undefined, undefined, undefined, "3.1.0") as unknown as Record<string, unknown>;
  return completeContract(
    {
      openapi: "3.1.0",
      info: { title: "Timbre API", version: info.version, description: `${INTRODUCTION}\n\n${info.description}` },
      servers: [{ url: "/", description: "this server" }],
      security: [{ apiKey: [] }, { bearer: [] }],
      paths: generated["paths"],
      components: {
        ...(generated["components"] as object),
        securitySchemes: {
          apiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "`sk_test_…` or `sk_live_…`" },
          bearer: { type: "http", scheme: "bearer", description: "a session's access token, or an API key" },
        },
      },
    },
    docs,
  );
}

export function apiReference(info: ApiInfo, docs: ContractDocs) {
  let document: Record<string, unknown> | undefined;
  const plugin: Elysia = new Elysia({ name: "timbre.api-reference" })
    .get("/v1/docs", () => new Response(page("Timbre API"), { headers: { "content-type": "text/html; charset=utf-8" } }), { detail: { hide: true } })
    .get(OPENAPI_PATH, () => (document ??= buildOpenApiDocument(plugin, info, docs)), { detail: { hide: true } }) as unknown as Elysia;
  return plugin;
}

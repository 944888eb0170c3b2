/**
 * Prints the server's OpenAPI document (`GET /v1/openapi.json`) generated in-process from the route schemas — no
 * server, no database, no network. The SDKs' type generators and their drift checks read it.
 *
 * Run: bun scripts/openapi-document.ts [out.json]
 */
import { writeFileSync } from "node:fs";
import { buildApp } from "../apps/server/src/app.js";
import { loadConfig } from "../apps/server/src/config.js";
import type { Deps } from "../apps/server/src/deps.js";
import { createLogger } from "../apps/server/src/log.js";

// The routes are built, never called: the document needs the config (version) and nothing that does I/O.
const config = loadConfig({ TIMBRE_MASTER_KEY: Buffer.alloc(32, 1).toString("base64"), TIMBRE_JWT_SECRET: Buffer.alloc(32, 2).toString("base64"), TIMBRE_DATA_DIR: "/nonexistent-openapi" });
const deps = { config, instanceId: "openapi-document", log: createLogger("error") } as unknown as Deps;
const app = buildApp(deps, { ping: async () => undefined });
const response = await app.handle(new Request("http://localhost/v1/openapi.json"));
if (!response.ok) throw new Error(`GET /v1/openapi.json answered ${response.status}: ${await response.text()}`);
const text = `${JSON.stringify(await response.json(), null, 2)}\n`;
const out = process.argv[2];
if (out) writeFileSync(out, text);
else process.stdout.write(text);
process.exit(0);

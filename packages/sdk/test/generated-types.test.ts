/**
 * `src/generated/openapi.ts` is what openapi-typescript makes of the server's current OpenAPI document: a change to
 * the server's schemas without regenerating (`npm run generate-types -w @timbre/sdk`) fails here.
 */
import { expect, test } from "bun:test";
import { fileURLToPath } from "node:url";

test("the committed API types match the server's schema", () => {
  const script = fileURLToPath(new URL("../scripts/generate-types.ts", import.meta.url));
  const run = Bun.spawnSync([process.execPath, script, "--check"], { stdout: "pipe", stderr: "pipe" });
  expect({ exitCode: run.exitCode, stderr: run.stderr.toString() }).toEqual({ exitCode: 0, stderr: "" });
}, 60_000);

/**
 * The built package works under plain Node 20: build @timbre/core (reuse `dist/` when it is newer than every
 * source file — turbo's `test` depends on `build` — otherwise a quick ESM-only tsup build into
 * node_modules/.cache), then spawn `node` on test/support/dist-node-smoke.mjs, which builds, stamps, signs and
 * verifies one document with the built code.
 */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readSiiData } from "./support/sii-data.js";
import { SAMPLE_T33, SAMPLE_TIMESTAMP, sampleIdentity } from "./support/signing-fixtures.js";

const root = fileURLToPath(new URL("..", import.meta.url));

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function builtEntry(): string {
  const dist = join(root, "dist", "index.js");
  if (existsSync(dist) && statSync(dist).mtimeMs > newestSource(join(root, "src"))) return dist;
  const out = join(root, "node_modules", ".cache", "dist-node-test");
  const build = spawnSync("npx", ["tsup", "src/index.ts", "--no-config", "--format", "esm", "--out-dir", out, "--target", "node20", "--silent"], {
    cwd: root,
    encoding: "utf8",
  });
  if (build.status !== 0) throw new Error(`tsup failed: ${build.stderr}`);
  return join(out, "index.js");
}

describe("dist under plain node", () => {
  test("builds, stamps, signs and verifies one document", () => {
    const entry = builtEntry();
    const identity = sampleIdentity();
    const work = join(root, "node_modules", ".cache", "dist-node-test");
    mkdirSync(work, { recursive: true });
    const fixture = join(work, "fixture.json");
    writeFileSync(
      fixture,
      JSON.stringify({
        keyPem: identity.privateKey.export({ format: "pem", type: "pkcs8" }),
        certificateDer: Buffer.from(identity.certificateDer).toString("base64"),
        cafXml: Buffer.from(readSiiData("fixtures/synthetic/CAF-T33-synthetic.xml")).toString("base64"),
        input: SAMPLE_T33,
        timestamp: SAMPLE_TIMESTAMP,
      }),
    );
    const run = spawnSync("node", [join(root, "test", "support", "dist-node-smoke.mjs"), entry, fixture], { encoding: "utf8", timeout: 10_000 });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      issues: [],
      documentId: "T33F1",
      montoTotal: 65061,
      startsWith: '<?xml version="1.0" encoding="ISO-8859-1"?>\n<DTE xmlns="http://www.sii.cl/SiiDte" version="1.0"><Documento ID="T33F1">',
      digestMatches: true,
      signatureValid: true,
      tedValid: true,
    });
    expect(String(result["node"])).toStartWith("v20");
    if (result["verifyDte"] !== null) expect(result["verifyDte"]).toBe(true);
  }, 15_000);
});

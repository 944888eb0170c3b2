/**
 * The sandbox validates every upload against the SII's schemas — the copy bundled in `@timbre/sii-data` unless
 * `TIMBRE_SII_SCHEMAS` names another folder — and is not created when it cannot find them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SiiRefusedError } from "../src/client/index.js";
import { createSandbox } from "../src/sandbox/index.js";
import { EMISOR, envelopeBytes, startWorld, type World } from "./support/world.js";

describe("the sandbox with the bundled schemas", () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.stop());

  test("an envelope the schema refuses (RUTEmisor removed from a document) → STATUS 7 naming the element", async () => {
    const xml = await envelopeBytes(world, { docs: [{ folio: 70 }], mutate: (x) => x.replace(/<RUTEmisor>[^<]*<\/RUTEmisor>/, "") });
    const refusal = await world.client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: EMISOR }).then(() => null, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(SiiRefusedError);
    expect((refusal as SiiRefusedError).status).toBe("7");
    expect((refusal as SiiRefusedError).detail.join("\n")).toMatch(/Expected is .*RUTEmisor/);
  }, 30_000);

  test("the same envelope untouched is received", async () => {
    const xml = await envelopeBytes(world, { docs: [{ folio: 71 }] });
    const { trackId } = await world.client.uploadEnvelope({ kind: "EnvioDTE", xml, rutEmisor: EMISOR });
    expect(trackId).toMatch(/^\d+$/);
  }, 30_000);
});

describe("without schemas", () => {
  const saved = process.env["TIMBRE_SII_SCHEMAS"];
  const empty = mkdtempSync(join(tmpdir(), "timbre-no-schemas-"));
  afterAll(() => {
    if (saved === undefined) delete process.env["TIMBRE_SII_SCHEMAS"];
    else process.env["TIMBRE_SII_SCHEMAS"] = saved;
    rmSync(empty, { recursive: true, force: true });
  });

  test("TIMBRE_SII_SCHEMAS at an empty folder: the sandbox is not created, the error names the setting", () => {
    process.env["TIMBRE_SII_SCHEMAS"] = empty;
    expect(() => createSandbox()).toThrow(/SII schemas not found: .*TIMBRE_SII_SCHEMAS/);
    // Validation explicitly off needs no schemas.
    expect(() => createSandbox({ xsd: "off" }).close()).not.toThrow();
  });

  test("the standalone sandbox process refuses to start: exit 1, stderr names the setting", async () => {
    const serve = new URL("../src/sandbox/serve.ts", import.meta.url).pathname;
    const child = Bun.spawn([process.execPath, serve, "--port", "0"], { env: { ...process.env, TIMBRE_SII_SCHEMAS: empty }, stdout: "pipe", stderr: "pipe" });
    const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
    expect(code).toBe(1);
    expect(stderr).toContain("TIMBRE_SII_SCHEMAS");
  }, 30_000);
});

// Runs the example (bun resolves @timbre/core to its sources) and checks what it wrote.
import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));

test("builds, signs, verifies and prints a boleta without a server", async () => {
  const out = mkdtempSync(join(tmpdir(), "embed-core-"));
  const child = Bun.spawn([process.execPath, "embed-core.js"], { cwd: here, env: { ...process.env, OUT_DIR: out }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect(stderr).toBe("");
  expect(code).toBe(0);
  expect(stdout).toContain("T39F1: neto");
  const xml = readFileSync(join(out, "T39F1.xml")).toString("latin1");
  expect(xml).toStartWith('<?xml version="1.0" encoding="ISO-8859-1"?>');
  expect(xml).toContain("<TED version=\"1.0\">");
  expect(xml).toContain("Café cortado");
  expect(readFileSync(join(out, "T39F1.pdf")).subarray(0, 5).toString()).toBe("%PDF-");
}, 60_000);

test("without OUT_DIR it writes under its own git-ignored out/ folder, never the current folder", async () => {
  const cwd = mkdtempSync(join(tmpdir(), "embed-core-cwd-"));
  const outDir = join(here, "out");
  try {
    const child = Bun.spawn([process.execPath, join(here, "embed-core.js")], { cwd, env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "OUT_DIR")), stdout: "pipe", stderr: "pipe" });
    expect(await child.exited).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
    expect(readdirSync(outDir).sort()).toEqual(["T39F1.pdf", "T39F1.xml"]);
    const ignored = Bun.spawnSync(["git", "check-ignore", "-q", join(outDir, "T39F1.xml")], { cwd: here });
    expect(ignored.exitCode).toBe(0);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
  }
}, 60_000);

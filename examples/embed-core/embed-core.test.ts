// Runs the example (bun resolves @timbre/core to its sources) and checks what it wrote.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
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

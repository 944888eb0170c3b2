/**
 * The guard of "the clone stands alone": no tracked file of the product, its tests, examples, benchmarks, scripts or
 * configuration reads the design folder beside the repository (the `shared` folder one level up). Markdown may mention it.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dir, "..", "..", "..");
const SELF = relative(ROOT, import.meta.path);

/** Ways a file could name that folder: a relative path, the SII folder inside it, or path segments. */
const UP = "..";
const DIR = "shared";
const FORBIDDEN = [/\.\.\/shared\b/, /\bshared\/sii\b/, /["']shared["']\s*,\s*["']sii["']/, /\.\.[\\/]{1,2}shared\b/];

/** Tracked files (`git ls-files`); without git (an unpacked archive), every file outside dependencies and builds. */
function repositoryFiles(): string[] {
  const git = spawnSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" });
  if (git.status === 0 && git.stdout.length > 0) return git.stdout.split("\0").filter(Boolean);
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      if ([".git", "node_modules", "dist", ".turbo", ".timbre"].includes(entry.name)) continue;
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk("");
  return out;
}

test("nothing but Markdown names the design folder beside the repository", () => {
  const files = repositoryFiles().filter((f) => !f.endsWith(".md") && f !== SELF);
  // The scan covers what it must: code, scripts, CI and the server's entry point.
  expect(files).toContain(".ci/run");
  expect(files).toContain("apps/server/src/main.ts");
  expect(files).toContain("packages/xsd/src/index.ts");
  const offenders: string[] = [];
  for (const file of files) {
    const path = join(ROOT, file);
    if (!statSync(path, { throwIfNoEntry: false })?.isFile()) continue;
    const text = readFileSync(path, "latin1");
    text.split("\n").forEach((line, i) => {
      if (FORBIDDEN.some((pattern) => pattern.test(line))) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  expect(offenders).toEqual([]);
});

test("the patterns catch what they are meant to", () => {
  const caught = (line: string) => FORBIDDEN.some((pattern) => pattern.test(line));
  // Written in pieces so that this file does not itself name the folder.
  expect(caught(`new URL("../../../${UP}/${DIR}/sii/wsdl/", import.meta.url)`)).toBe(true);
  expect(caught('join(dir, "..", "shared", "sii", "schemas")')).toBe(true);
  expect(caught(`cp -r ${UP}/${DIR}/design docs/`)).toBe(true);
  expect(caught('import { readShared } from "./support/shared.js"')).toBe(false);
  expect(caught("the shared transaction")).toBe(false);
});

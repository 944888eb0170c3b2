/**
 * `packages/core/src` is pure (STYLE.md): no file system, network, process environment, database or wall clock.
 * Test files (`*.test.ts`) are exempt.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const FORBIDDEN_MODULES = [
  "fs", "node:fs", "fs/promises", "node:fs/promises",
  "net", "node:net",
  "http", "https", "http2", "node:http", "node:https", "node:http2",
  "child_process", "node:child_process",
  "postgres", "drizzle-orm", "@electric-sql/pglite",
];

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
/** `from "x"`, `import "x"`, `import("x")`, `require("x")`, also subpaths such as `drizzle-orm/pg-core`. */
const MODULE_RE = new RegExp(
  String.raw`(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'](${[...FORBIDDEN_MODULES].sort((a, b) => b.length - a.length).map(escapeRe).join("|")})(?:/[^"']*)?["']`,
  "g",
);
const OTHER_RULES: Array<[RegExp, string]> = [
  [/\bprocess\s*\.\s*env\b/, "mentions process.env"],
  [/\bDate\s*\.\s*now\s*\(/, "calls Date.now()"],
  [/\bnew\s+Date\s*\(\s*\)/, "calls new Date() without an argument"],
];

/** Drops block comments and whole-line `//` comments (JSDoc examples may show what code must not do). */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

/** Every purity violation in one source text, as human-readable strings. */
export function findPurityViolations(source: string): string[] {
  const code = stripComments(source);
  const found: string[] = [];
  for (const m of code.matchAll(MODULE_RE)) found.push(`imports ${m[1]}`);
  for (const [re, message] of OTHER_RULES) if (re.test(code)) found.push(message);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|mjs|cjs)$/.test(entry.name) && !/\.test\.[tj]sx?$/.test(entry.name) ? [path] : [];
  });
}

const SRC = fileURLToPath(new URL("../src", import.meta.url));

describe("core purity", () => {
  test("the checker catches each kind of violation", () => {
    const bad = [
      'import { readFileSync } from "node:fs";',
      'import * as fsp from "fs/promises";',
      'const net = require("net");',
      'const h = await import("node:https");',
      'import postgres from "postgres";',
      'import { pgTable } from "drizzle-orm/pg-core";',
      'import { PGlite } from "@electric-sql/pglite";',
      'import { spawn } from "child_process";',
      "const key = process.env.SECRET;",
      "const t = Date.now();",
      "const d = new Date();",
    ].join("\n");
    expect(findPurityViolations(bad)).toEqual([
      "imports node:fs",
      "imports fs/promises",
      "imports net",
      "imports node:https",
      "imports postgres",
      "imports drizzle-orm",
      "imports @electric-sql/pglite",
      "imports child_process",
      "mentions process.env",
      "calls Date.now()",
      "calls new Date() without an argument",
    ]);
  });

  test("the checker accepts pure code", () => {
    const good = [
      'import { createHash } from "node:crypto";',
      'import { DOMParser } from "@xmldom/xmldom";',
      'import { fsLike } from "./fs-like.js";',
      "const d = new Date(now.getTime());",
      'const e = new Date("2026-01-15");',
      "/** @example const t = Date.now(); */",
      "// new Date() is forbidden here",
      'const url = "http://www.w3.org/2000/09/xmldsig#";',
    ].join("\n");
    expect(findPurityViolations(good)).toEqual([]);
  });

  test("packages/core/src has no impure source file", () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(10);
    const violations = files.flatMap((file) =>
      findPurityViolations(readFileSync(file, "utf8")).map((v) => `${relative(SRC, file)}: ${v}`),
    );
    expect(violations).toEqual([]);
  });
});

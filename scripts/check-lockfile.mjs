#!/usr/bin/env node
/**
 * `npm ci` refuses a lockfile that names an optional dependency without locking it. npm writes such lockfiles
 * when the registry lacks a platform package (seen here: rollup 4.68 and turbo 2.11.11 on this registry), so a
 * green `npm install` can still break CI. This check finds that before CI does; the fix is to pin the parent to a
 * version whose platform packages all exist (see the root package.json `overrides`).
 */
import { readFileSync } from "node:fs";

const lock = JSON.parse(readFileSync(new URL("../package-lock.json", import.meta.url), "utf8"));
const packages = lock.packages ?? {};
const locked = new Set(Object.keys(packages).map((path) => path.replace(/^.*node_modules\//, "")));
const problems = [];
for (const [path, entry] of Object.entries(packages)) {
  for (const name of Object.keys(entry.optionalDependencies ?? {})) {
    if (!locked.has(name)) problems.push(`${path || "(root)"} → ${name}`);
  }
}
if (problems.length > 0) {
  console.error(`package-lock.json names optional dependencies it does not lock (npm ci will fail):\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`package-lock.json: ${Object.keys(packages).length} entries, every optional dependency locked`);

#!/usr/bin/env node
/**
 * `npm ci` refuses a lockfile that names an optional dependency without locking it. npm writes such lockfiles
 * when the registry lacks a platform package (seen here: rollup 4.68 and turbo 2.11.11 on this registry), so a
 * green `npm install` can still break CI. This check finds that before CI does; the fix is to pin the parent to a
 * version whose platform packages all exist (see the root package.json `overrides`).
 * It also checks that every locked package accepts the Node version README.md names ("Node.js ≥ X installs the
 * repository without a warning"), so `npm install` on that version prints no EBADENGINE warning.
 */
import { readFileSync } from "node:fs";
import semver from "semver";

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

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const named = /Node\.js ≥ (\d+\.\d+(?:\.\d+)?) installs the repository without a warning/.exec(readme)?.[1];
if (!named) {
  console.error("README.md no longer names the Node version that installs without a warning (\"Node.js ≥ X installs the repository without a warning\")");
  process.exit(1);
}
const node = semver.coerce(named).version;
const refusing = Object.entries(packages)
  .filter(([, entry]) => typeof entry.engines?.node === "string" && !semver.satisfies(node, entry.engines.node))
  .map(([path, entry]) => `${path || "(root)"} wants node ${entry.engines.node}`);
if (refusing.length > 0) {
  console.error(`README.md says Node ${named} installs without a warning, but these packages refuse it:\n  ${refusing.join("\n  ")}`);
  process.exit(1);
}
console.log(`package-lock.json: ${Object.keys(packages).length} entries, every optional dependency locked, every engine accepts Node ${node}`);

#!/usr/bin/env node
/**
 * Every published package (a workspace not marked private) carries every file its `exports` and `bin` name: a
 * `bun` condition pointing at `src/` is useless to a user whose installed copy has no `src/` (Bun then fails with
 * "Cannot find module"). Checked against the `files` list, which is what `npm pack` keeps.
 */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const workspaces = ["packages", "apps"].flatMap((group) =>
  readdirSync(join(root, group)).map((name) => join(root, group, name)).filter((dir) => existsSync(join(dir, "package.json"))),
);

/** Every path string under an `exports` value, whatever its conditions. */
const targetsOf = (value) => (typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(targetsOf) : []);
const normal = (path) => path.replace(/^\.\//, "").replace(/\/$/, "");

const problems = [];
let checked = 0;
for (const dir of workspaces) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (pkg.private) continue;
  checked++;
  // npm always packs package.json and the README.
  const kept = ["package.json", "README.md", ...(pkg.files ?? []).filter((f) => !f.startsWith("!")).map(normal)];
  const bins = typeof pkg.bin === "string" ? [pkg.bin] : Object.values(pkg.bin ?? {});
  for (const target of [...targetsOf(pkg.exports), ...bins].map(normal)) {
    if (!kept.some((f) => target === f || target.startsWith(`${f}/`))) problems.push(`${pkg.name}: ${target} is not in "files"`);
  }
}
if (problems.length > 0) {
  console.error(`published packages name files they do not ship:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`published packages: ${checked} checked, every exported file is shipped`);

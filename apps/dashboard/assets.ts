/**
 * Building and loading the dashboard's three static files (index.html, app.js, app.css). Runs on Bun (the
 * server's runtime): `buildDashboard()` bundles with `Bun.build`; `dashboardAssets()` serves `dist/` when it is
 * up to date and otherwise builds in memory, so `npm start` works without a separate build step.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface DashboardAsset {
  /** File name inside the dashboard: `index.html`, `app.js`, `app.css`. */
  name: string;
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  /** Strong ETag (quoted), from the content hash. */
  etag: string;
  /** Short content hash, used as the `?v=` cache-buster in index.html. */
  hash: string;
}

const here = fileURLToPath(new URL(".", import.meta.url));
/** Absolute path of the built files (`apps/dashboard/dist`). */
export const dashboardDir = join(here, "dist");
const srcDir = join(here, "src");

const TYPES: Record<string, string> = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "app.css": "text/css; charset=utf-8",
};

function asset(name: string, body: Uint8Array<ArrayBuffer>): DashboardAsset {
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 16);
  return { name, body, contentType: TYPES[name] ?? "application/octet-stream", etag: `"${hash}"`, hash };
}

async function bundle(entry: string): Promise<Uint8Array<ArrayBuffer>> {
  // `bun`: workspace packages (`@timbre/core/totals`) resolve to their TypeScript sources, built or not.
  const result = await Bun.build({ entrypoints: [entry], target: "browser", conditions: ["bun"], format: "esm", minify: true, sourcemap: "none" });
  if (!result.success) throw new AggregateError(result.logs, `dashboard build failed for ${entry}`);
  const out = result.outputs[0];
  if (!out) throw new Error(`dashboard build produced nothing for ${entry}`);
  return new Uint8Array(await out.arrayBuffer());
}

/** Bundles the dashboard; writes the files to `outdir` when given. */
export async function buildDashboard(outdir?: string): Promise<DashboardAsset[]> {
  const js = asset("app.js", await bundle(join(srcDir, "main.ts")));
  const css = asset("app.css", await bundle(join(srcDir, "app.css")));
  const template = readFileSync(join(srcDir, "index.html"), "utf8");
  const html = asset("index.html", new TextEncoder().encode(template.replace("__JS_HASH__", js.hash).replace("__CSS_HASH__", css.hash)));
  const assets = [html, js, css];
  if (outdir) {
    mkdirSync(outdir, { recursive: true });
    for (const a of assets) writeFileSync(join(outdir, a.name), a.body);
  }
  return assets;
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function readDist(): DashboardAsset[] | null {
  const names = Object.keys(TYPES);
  if (!names.every((n) => existsSync(join(dashboardDir, n)))) return null;
  // A checkout without sources (published build) always uses dist; otherwise dist must be newer than src.
  if (existsSync(srcDir) && statSync(join(dashboardDir, "index.html")).mtimeMs < newestSource(srcDir)) return null;
  return names.map((n) => asset(n, new Uint8Array(readFileSync(join(dashboardDir, n)))));
}

let cached: Promise<DashboardAsset[]> | null = null;

/** The dashboard files, from an up-to-date `dist/` or built in memory; computed once per process. */
export function dashboardAssets(): Promise<DashboardAsset[]> {
  cached ??= Promise.resolve().then(() => readDist() ?? buildDashboard());
  return cached;
}

/**
 * Serves the Swagger UI bundle for `/v1/docs` from the installed `swagger-ui-dist` package, so the interactive
 * reference works without internet access (the default would load it from a CDN).
 */
import { Elysia } from "elysia";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export const DOCS_ASSETS_PATH = "/v1/docs/assets";

const FILES: Record<string, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
};

const cache = new Map<string, Uint8Array<ArrayBuffer>>();

function load(file: string): Uint8Array<ArrayBuffer> {
  let bytes = cache.get(file);
  if (!bytes) {
    const dir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
    bytes = new Uint8Array(readFileSync(join(dir, file)));
    cache.set(file, bytes);
  }
  return bytes;
}

export function docsAssets() {
  return new Elysia({ name: "timbre.docs-assets" }).get(
    `${DOCS_ASSETS_PATH}/:file`,
    ({ params, set }) => {
      const type = FILES[params.file];
      if (!type) {
        set.status = 404;
        return new Response("not found", { status: 404 });
      }
      return new Response(load(params.file), { headers: { "content-type": type, "cache-control": "public, max-age=86400" } });
    },
    { detail: { hide: true } },
  );
}

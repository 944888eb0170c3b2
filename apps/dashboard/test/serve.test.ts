/**
 * The server plugin (apps/server/src/http/dashboard.ts) behind the real pipeline: redirects, SPA fallback,
 * content types, cache headers, ETag/304 and the CSP.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildDashboard, dashboardDir } from "../index.js";
import { dashboard } from "../../server/src/http/dashboard.js";
import { startInProcess, type InProcess } from "./support/in-process.js";

let server: InProcess;
const get = (path: string, headers: Record<string, string> = {}) => server.app.handle(new Request(`http://localhost${path}`, { headers }));

beforeAll(async () => {
  await buildDashboard(dashboardDir);
  server = await startInProcess((app) => app.use(dashboard()));
});
afterAll(async () => server?.close());

describe("dashboard plugin", () => {
  test("/ and /dashboard redirect to /dashboard/", async () => {
    for (const path of ["/", "/dashboard"]) {
      const r = await get(path);
      expect(r.status).toBe(302);
      expect(r.headers.get("location")).toBe("/dashboard/");
    }
  });

  test("index.html with CSP, no-cache, and SPA fallback for deep links", async () => {
    for (const path of ["/dashboard/", "/dashboard/documentos/dte_01abc", "/dashboard/empresas/nueva"]) {
      const r = await get(path);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(r.headers.get("cache-control")).toBe("no-cache");
      expect(r.headers.get("content-security-policy")).toStartWith("default-src 'self'");
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
      const html = await r.text();
      expect(html).toContain('<main id="main"');
      expect(html).not.toContain("__JS_HASH__");
    }
  });

  test("assets: content types, immutable with the current hash, revalidated otherwise, 304 on ETag", async () => {
    const html = await (await get("/dashboard/")).text();
    const js = /src="(\/dashboard\/app\.js\?v=[0-9a-f]+)"/.exec(html)?.[1];
    const css = /href="(\/dashboard\/app\.css\?v=[0-9a-f]+)"/.exec(html)?.[1];
    expect(js).toBeString();
    expect(css).toBeString();
    const rj = await get(js ?? "");
    expect(rj.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(rj.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const rc = await get(css ?? "");
    expect(rc.headers.get("content-type")).toBe("text/css; charset=utf-8");
    const stale = await get("/dashboard/app.js?v=old");
    expect(stale.headers.get("cache-control")).toBe("no-cache");
    const etag = rj.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
    const again = await get("/dashboard/app.js", { "if-none-match": etag });
    expect(again.status).toBe(304);
  });

  test("unknown files are 404, the API keeps its JSON 404", async () => {
    expect((await get("/dashboard/nope.js")).status).toBe(404);
    const api = await get("/v1/nope");
    expect(api.status).toBe(404);
    expect((await api.json()).success).toBe(false);
  });

  test("the dashboard routes stay out of the OpenAPI document", async () => {
    const r = await get("/v1/openapi.json");
    expect(r.status).toBe(200);
    const paths = Object.keys(((await r.json()) as { paths: Record<string, unknown> }).paths);
    expect(paths.some((p) => p === "/" || p.startsWith("/dashboard"))).toBe(false);
  });

  test("the bundle stays small and never touches storage with secrets", async () => {
    const assets = await buildDashboard();
    const js = assets.find((a) => a.name === "app.js");
    expect(js).toBeDefined();
    const text = new TextDecoder().decode(js?.body);
    expect(Bun.gzipSync(js?.body ?? new Uint8Array()).byteLength).toBeLessThan(50 * 1024);
    // Only these storage keys exist: the refresh token (sessionStorage) and two preferences (localStorage).
    const keys = [...text.matchAll(/"(timbre\.[a-z]+)"/g)].map((m) => m[1]);
    expect(new Set(keys)).toEqual(new Set(["timbre.refresh", "timbre.business", "timbre.environment"]));
  });
});

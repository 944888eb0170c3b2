/**
 * Serves the web dashboard (`@timbre/dashboard`) at `/dashboard` and redirects `/` there. SPA fallback: any
 * `/dashboard/…` path without a file extension answers index.html. Assets carry a strong ETag (304 on
 * If-None-Match); app.js/app.css are immutable for a year when requested with their current `?v=` hash,
 * index.html is always revalidated. Every answer carries a strict Content-Security-Policy (`default-src 'self'`;
 * `blob:` frames only for the PDF preview, which the dashboard fetches with the session and shows from a blob URL).
 *
 * Mount once in app.ts: `.use(dashboard())`.
 */
import { Elysia } from "elysia";
import { dashboardAssets, type DashboardAsset } from "@timbre/dashboard";

export const DASHBOARD_CSP =
  "default-src 'self'; frame-src 'self' blob:; object-src 'self' blob:; img-src 'self' data: blob:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": DASHBOARD_CSP,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
};

function serve(request: Request, a: DashboardAsset, cacheControl: string): Response {
  const headers = { ...SECURITY_HEADERS, "Content-Type": a.contentType, "Cache-Control": cacheControl, ETag: a.etag };
  const match = request.headers.get("if-none-match");
  if (match !== null && match.split(",").some((t) => t.trim().replace(/^W\//, "") === a.etag)) return new Response(null, { status: 304, headers });
  return new Response(request.method === "HEAD" ? null : a.body, { status: 200, headers });
}

function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { Location: location, "Cache-Control": "no-cache" } });
}

export function dashboard() {
  let loaded: Promise<Map<string, DashboardAsset>> | null = null;
  const assets = () => (loaded ??= dashboardAssets().then((list) => new Map(list.map((a) => [a.name, a]))));
  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const rest = url.pathname.slice("/dashboard/".length);
    const files = await assets();
    const file = files.get(rest);
    if (file && file.name !== "index.html") {
      const fresh = url.searchParams.get("v") === file.hash;
      return serve(request, file, fresh ? "public, max-age=31536000, immutable" : "no-cache");
    }
    const last = rest.split("/").pop() ?? "";
    if (last.includes(".") && rest !== "index.html") {
      return new Response("Not found", { status: 404, headers: { ...SECURITY_HEADERS, "Content-Type": "text/plain; charset=utf-8" } });
    }
    const index = files.get("index.html");
    if (!index) throw new Error("dashboard index.html missing");
    return serve(request, index, "no-cache");
  };
  // Elysia matches paths with or without a trailing slash: decide on the exact pathname here.
  const entry = ({ request }: { request: Request }) => {
    const path = new URL(request.url).pathname;
    return path === "/" || path === "/dashboard" ? redirect("/dashboard/") : handle(request);
  };
  return new Elysia({ name: "timbre.dashboard" })
    .get("/", entry, { detail: { hide: true } })
    .get("/dashboard", entry, { detail: { hide: true } })
    .get("/dashboard/*", entry, { detail: { hide: true } });
}

/**
 * The SII's list of authorised electronic issuers (`GET /issuers/{rut}`, API.md §14) on top of `fake-api.ts`:
 * registered after it, it answers `/issuers/…` (one listed issuer, one RUT that makes the server fail, 404 for the
 * rest) and an empty `/dte?receptor_rut=…` (a receptor never issued to), and hands every other call back.
 */
import type { Page, Route } from "playwright-core";

export const LISTED = { rut: "96790240-3", razon_social: "COMERCIALIZADORA ÑUÑOA Y CÍA. LIMITADA", resolucion: { numero: 80, fecha: "2014-08-22" }, correo_intercambio: "recepcion.documentos.tributarios.electronicos@comercializadora-nunoa.example.cl" };
/** A valid RUT the scripted server answers with a 500. */
export const FAILING_RUT = "76543210-3";

export async function installFakeIssuers(page: Page): Promise<{ asked: string[] }> {
  const asked: string[] = [];
  const json = (route: Route, status: number, body: unknown) => route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) });
  await page.route("**/v1/**", async (route) => {
    const url = new URL(route.request().url());
    if (route.request().headers().authorization === undefined) return route.fallback();
    const m = /^\/v1\/issuers\/([^/]+)$/.exec(url.pathname);
    if (m) {
      const rut = decodeURIComponent(m[1] ?? "");
      asked.push(rut);
      if (rut === LISTED.rut) return json(route, 200, { success: true, data: LISTED });
      if (rut === FAILING_RUT) return json(route, 500, { success: false, error: { code: "INTERNAL_ERROR", message: "boom", request_id: "req_x" } });
      return json(route, 404, { success: false, error: { code: "NOT_FOUND", message: "issuer not found", request_id: "req_x" } });
    }
    if (url.pathname === "/v1/dte" && url.searchParams.has("receptor_rut")) return json(route, 200, { success: true, data: [], pagination: { page: 1, limit: 1, total: 0, total_pages: 0 } });
    return route.fallback();
  });
  return { asked };
}

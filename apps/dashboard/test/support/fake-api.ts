/**
 * A scripted stand-in for `/v1`, installed with playwright's `page.route`, for UI states the live server cannot
 * produce on demand (rejections with SII hints, many pages, an expired access token). Records every request.
 */
import type { Page, Route } from "playwright-core";

export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string | null;
}

const user = { id: "usr_01", email: "ana@empresa.cl", nombre: "Ana Pérez", created_at: "2026-11-01T12:00:00.000Z" };
export const business = {
  id: "biz_01fake", rut: "76192083-9", razon_social: "Comercial Los Andes SpA", giro: "Venta de artículos de oficina", acteco: [477399],
  direccion: "Av. Providencia 1234", comuna: "Providencia", ciudad: "Santiago", email: null, telefono: null, sucursal_sii: null, unidad_sii: null, resolucion: null,
  webhook_url: "https://erp.example.cl/webhooks/timbre",
  certificate: { rut_titular: "11111111-1", nombre_titular: "ANA PEREZ SOTO", emisor: "E-CERTCHILE CA", serial: "01", valid_from: "2026-01-01T00:00:00.000Z", valid_to: "2027-01-01T00:00:00.000Z", fingerprint_sha256: "ab".repeat(32) },
  created_at: "2026-11-01T12:00:00.000Z", updated_at: "2026-11-01T12:00:00.000Z",
};

const receptor = (i: number) => ({ rut: ["77777777-7", "76543210-3", "96790240-3"][i % 3] ?? "77777777-7", razon_social: ["Cliente de Prueba Ltda", "Distribuidora Sur SpA", "Constructora Norte S.A."][i % 3] ?? "" });
const ESTADOS = ["ACEPTADO", "RECHAZADO", "ACEPTADO_CON_REPAROS", "ENVIADO", "PENDIENTE"] as const;
export const documents = Array.from({ length: 5 }, (_, i) => ({
  id: `dte_0${i}fake`, tipo: i === 3 ? 39 : 33, folio: 120 - i, fecha_emision: `2026-11-2${2 - (i % 2)}T1${i}:03:07.123Z`, fecha: "2026-11-22",
  receptor: receptor(i), monto_neto: 12_580 * (i + 1), monto_exento: 0, monto_iva: Math.round(12_580 * (i + 1) * 0.19), monto_total: Math.round(12_580 * (i + 1) * 1.19),
  estado: ESTADOS[i] ?? "ACEPTADO", track_id: i === 4 ? null : `${8_123_450 + i}`, pdf_url: `/v1/dte/dte_0${i}fake/pdf`, xml_url: `/v1/dte/dte_0${i}fake/xml`, environment: "test", created_at: "2026-11-22T10:03:07.123Z",
}));

export const detail = (d: (typeof documents)[number]) => ({
  ...d,
  items: [
    { nombre: "Resmas de papel carta", cantidad: 3, precio: 4990, monto: 14_970 },
    { nombre: "Archivador lomo ancho", cantidad: 2, precio: 3500, monto: 7000 },
  ],
  referencias: [],
  historial: [
    { estado: "PENDIENTE", at: "2026-11-22T10:03:07.123Z" },
    { estado: "ENVIADO", at: "2026-11-22T10:03:08.001Z", detalle: `track_id ${d.track_id}` },
    ...(d.estado === "RECHAZADO" ? [{ estado: "RECHAZADO", at: "2026-11-22T10:05:00.000Z", detalle: "RCT: rechazado por el SII" }] : d.estado === "ACEPTADO" ? [{ estado: "ACEPTADO", at: "2026-11-22T10:05:00.000Z" }] : []),
  ],
});

const status = (d: (typeof documents)[number]) => ({
  id: d.id, estado: d.estado, track_id: d.track_id, historial: detail(d).historial,
  sii: {
    estado_envio: d.estado === "RECHAZADO" ? "RCT" : "EPR", glosa: d.estado === "RECHAZADO" ? "Rechazado por error en carátula o firma" : "Envío procesado",
    aceptados: d.estado === "RECHAZADO" ? 0 : 1, rechazados: d.estado === "RECHAZADO" ? 1 : 0, reparos: 0, consultado_at: "2026-11-22T10:05:00.000Z",
    errores: d.estado === "RECHAZADO" ? [{ codigo: "CRT-3", descripcion: "Fecha de resolución no corresponde al RUT emisor", ayuda: "Revisa el número y la fecha de resolución del SII en los datos de la empresa." }] : [],
  },
});

/**
 * The receiver's answer as the server gives it: an accepted factura within its 8 days; one the SII has not accepted
 * yet not asked about; anything else not in the registry.
 */
const acceptance = (d: (typeof documents)[number]) => {
  const applies = d.tipo === 33 && (d.estado === "ACEPTADO" || d.estado === "ACEPTADO_CON_REPAROS");
  const waiting = (d.tipo === 33 || d.tipo === 34) && (d.estado === "PENDIENTE" || d.estado === "ENVIADO");
  return {
    id: d.id, tipo: d.tipo, folio: d.folio, estado: applies ? "SIN_RESPUESTA" : waiting ? "SIN_CONSULTAR" : "NO_APLICA", eventos: [],
    recibido_sii_at: applies ? "2026-11-22T10:05:00.000Z" : null, plazo_hasta: applies ? "2026-11-30T10:05:00.000Z" : null,
    consultado_at: applies ? "2026-11-22T11:05:00.000Z" : null, proxima_consulta_at: applies ? "2026-11-24T11:05:00.000Z" : null,
  };
};

const events = [
  { id: "evt_01", event: "dte.status_changed", environment: "test", business_id: business.id, created_at: "2026-11-22T10:05:00.000Z", data: { dte_id: "dte_00fake", tipo: 33, folio: 120, old_status: "ENVIADO", new_status: "ACEPTADO", timestamp: "2026-11-22T10:05:00.000Z" }, deliveries: [{ attempt: 1, at: "2026-11-22T10:05:01.000Z", status_code: 200, ok: true }] },
  { id: "evt_02", event: "dte.status_changed", environment: "test", business_id: business.id, created_at: "2026-11-22T10:04:00.000Z", data: { dte_id: "dte_01fake", tipo: 33, folio: 119, old_status: "ENVIADO", new_status: "RECHAZADO", timestamp: "2026-11-22T10:04:00.000Z" }, deliveries: [{ attempt: 1, at: "2026-11-22T10:04:01.000Z", status_code: 500, ok: false }, { attempt: 2, at: "2026-11-22T10:04:06.000Z", status_code: 200, ok: true }] },
  { id: "evt_03", event: "certificate.expiring", environment: "test", business_id: business.id, created_at: "2026-11-21T09:00:00.000Z", data: {}, deliveries: [] },
];

/** A one-page PDF with one line of text (valid enough for Chromium's viewer). */
export function tinyPdf(text: string): Uint8Array {
  const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

export interface FakeApi {
  seen: Seen[];
  /** Answer the next authenticated call with 401 (an expired access token). */
  expireAccessToken(): void;
  /** Refuse every refresh from now on (the login was revoked). */
  revokeLogin(): void;
}

export async function installFakeApi(page: Page): Promise<FakeApi> {
  const seen: Seen[] = [];
  let generation = 1;
  let expireNext = false;
  let revoked = false;
  const json = (route: Route, status: number, body: unknown) => route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) });
  const session = () => ({ user, access_token: `tok${generation}`, refresh_token: `ref${generation}`, token_type: "Bearer", expires_in: 900 });
  await page.route("**/v1/**", async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const path = url.pathname.replace(/^\/v1/, "");
    const headers = request.headers();
    seen.push({ method: request.method(), path, query: url.searchParams, headers, body: request.postData() });
    if (path === "/auth/login") return json(route, 200, { success: true, data: session() });
    if (path === "/auth/refresh") {
      const body = JSON.parse(request.postData() ?? "{}") as { refresh_token?: string };
      if (revoked || body.refresh_token !== `ref${generation}`) return json(route, 401, { success: false, error: { code: "UNAUTHORIZED", message: "refresh token revoked", request_id: "req_x" } });
      generation += 1;
      return json(route, 200, { success: true, data: session() });
    }
    if (headers.authorization !== `Bearer tok${generation}` || expireNext) {
      expireNext = false;
      return json(route, 401, { success: false, error: { code: "UNAUTHORIZED", message: "expired", request_id: "req_x" } });
    }
    if (path === "/businesses") return json(route, 200, { success: true, data: [business], pagination: { page: 1, limit: 100, total: 1, total_pages: 1 } });
    if (path === "/dte") {
      const page = Number(url.searchParams.get("page") ?? "1");
      const estado = url.searchParams.get("estado");
      const data = documents.filter((d) => !estado || d.estado === estado);
      return json(route, 200, { success: true, data, pagination: { page, limit: 20, total: estado ? data.length : 45, total_pages: estado ? 1 : 3 } });
    }
    const m = /^\/dte\/([^/]+)(?:\/(status|pdf|xml|anular|aceptacion))?$/.exec(path);
    const doc = documents.find((d) => d.id === m?.[1]);
    if (m && doc) {
      if (m[2] === "status") return json(route, 200, { success: true, data: status(doc) });
      // asking the SII again is refused (too many requests): the page keeps the last answer
      if (m[2] === "aceptacion" && url.searchParams.get("refresh") === "true") return json(route, 429, { success: false, error: { code: "RATE_LIMITED", message: "too many requests", request_id: "req_x" } });
      if (m[2] === "aceptacion") return json(route, 200, { success: true, data: acceptance(doc) });
      if (m[2] === "pdf") return route.fulfill({ status: 200, contentType: "application/pdf", body: Buffer.from(tinyPdf(`Factura electronica N ${doc.folio}`)) });
      if (m[2] === "xml") return route.fulfill({ status: 200, contentType: "application/xml; charset=ISO-8859-1", body: "<DTE/>" });
      if (m[2] === "anular") return json(route, 201, { success: true, data: { ...detail(doc), id: "dte_00fake", tipo: 61, folio: 7 } });
      return json(route, 200, { success: true, data: detail(doc) });
    }
    if (path === "/events") return json(route, 200, { success: true, data: events, pagination: { page: 1, limit: 20, total: events.length, total_pages: 1 } });
    return json(route, 404, { success: false, error: { code: "NOT_FOUND", message: "route not found", request_id: "req_x" } });
  });
  return {
    seen,
    expireAccessToken: () => (expireNext = true),
    revokeLogin: () => {
      revoked = true;
      expireNext = true;
    },
  };
}

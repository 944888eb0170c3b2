/**
 * The received documents (API.md §12), a business's intercambio block and a document's delivery (§11) on top of
 * `fake-api.ts`: registered after it, so it answers these routes first and hands every other one back
 * (`route.fallback()`). Decisions change the scripted documents as the server would; one document's registry is
 * scripted to refuse (not at the SII yet, then the SII silent), for the error states the real sandbox gives rarely.
 */
import type { Page, Route } from "playwright-core";
import { business, detail, documents, tinyPdf } from "./fake-api.js";

const OK = { firma: "ok", firma_variante: "separado", timbre: "ok", caf: "ok", receptor: "ok", emisor: "ok" };
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000 + 3 * 3_600_000).toISOString();
const emisor = { rut: "96790240-3", razon_social: "Papelera del Sur S.A.", giro: "Fabricación de papel" };

const DESCRIPTIONS: Record<string, string> = { ACD: "Acepta Contenido del Documento", ERM: "Otorga Recibo de Mercaderías o Servicios", RFP: "Reclamo por Falta Parcial de Mercaderías" };

type Doc = Record<string, unknown> & { id: string; estado: string; eventos: Array<Record<string, unknown>> };

function received(id: string, tipo: number, folio: number, over: Record<string, unknown> = {}): Doc {
  return {
    id, emisor, tipo, folio, fecha: "2026-11-20", monto_neto: 100_000, monto_exento: 0, monto_iva: 19_000, monto_total: 119_000,
    items: [{ nombre: "Resmas de papel carta", cantidad: 20, precio: 5000, monto: 100_000 }],
    referencias: [], recibido_at: "2026-11-20T13:00:00.000Z", recibido_sii_at: "2026-11-20T12:00:00.000Z", plazo_hasta: inDays(3),
    estado: "SIN_RESPUESTA", eventos: [], verificacion: OK, superseded_by: null, environment: "test", created_at: "2026-11-20T13:00:00.000Z", ...over,
  };
}

export function receivedDocuments(): Doc[] {
  return [
    received("rcv_01fake", 33, 501),
    received("rcv_02fake", 33, 502, { plazo_hasta: inDays(1) }),
    received("rcv_03fake", 33, 503, { recibido_sii_at: null, plazo_hasta: null }),
    received("rcv_04fake", 33, 504, { verificacion: { firma: "ok", firma_variante: "separado", timbre: "invalido", caf: "autoridad_desconocida", receptor: "ok", emisor: "ok" } }),
    received("rcv_05fake", 110, 77, { estado: "NO_APLICA", plazo_hasta: null, monto_neto: 0, monto_iva: 0, monto_exento: 500_000, monto_total: 500_000 }),
    received("rcv_06fake", 33, 400, { estado: "ACEPTADO_TACITO", plazo_hasta: "2026-11-01T12:00:00.000Z" }),
    received("rcv_07fake", 61, 90, { estado: "NO_APLICA", plazo_hasta: null, referencias: [{ tipo: "33", folio: "480", fecha: "2026-11-02", codigo: 1, razon: "Anula factura" }] }),
  ];
}

export interface FakeReceived {
  docs: Doc[];
  /** Every request these routes answered, in order. */
  bodies: Array<{ method: string; path: string; body: string | null; query: URLSearchParams; headers: Record<string, string> }>;
}

const inbox = [
  { id: "rin_01", source: "smtp", reason: "signature", detail: "envelope signature: digest mismatch", from: "facturacion@proveedor.cl", subject: "Factura 900", filename: "EnvioDTE_900.xml", created_at: "2026-11-21T12:00:00.000Z" },
  { id: "rin_02", source: "imap", reason: "not_processed", detail: "attachment root RespuestaDTE", from: "dte@cliente.cl", subject: null, filename: "respuesta.xml", created_at: "2026-11-21T11:00:00.000Z" },
];

export async function installFakeReceived(page: Page): Promise<FakeReceived> {
  const docs = receivedDocuments();
  const bodies: FakeReceived["bodies"] = [];
  let biz: Record<string, unknown> = { ...business, intercambio: { email: "k3v9x2m8q4w7e1r5t6y0u2i8o4p6a1s3@intercambio.timbre.test" } };
  let delivery = { destinatarios: ["dte@cliente.cl", "pagos@cliente.cl"], estado: "FALLIDO", enviado_at: null as string | null, intentos: 3, error: "550 5.1.1 mailbox unavailable" as string | null, respuestas: [{ tipo: "recepcion", codigo: 0, glosa: "Envío recibido conforme", at: "2026-11-22T11:00:00.000Z" }] };
  const json = (route: Route, status: number, body: unknown) => route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) });
  const fail = (route: Route, status: number, code: string, message: string, details: Record<string, unknown> = {}) =>
    json(route, status, { success: false, error: { code, message, details, request_id: "req_x" } });
  await page.route("**/v1/**", async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const path = url.pathname.replace(/^\/v1/, "");
    const method = request.method();
    bodies.push({ method, path, body: request.postData(), query: url.searchParams, headers: request.headers() });
    if (path === "/received" && method === "GET") {
      const estado = url.searchParams.get("estado");
      const data = docs.filter((d) => !estado || d.estado === estado);
      return json(route, 200, { success: true, data, pagination: { page: Number(url.searchParams.get("page") ?? "1"), limit: 20, total: estado ? data.length : 27, total_pages: estado ? 1 : 2 } });
    }
    if (path === "/received" && method === "POST") {
      if ((request.postData() ?? "").includes("otra-empresa.xml")) return fail(route, 422, "ENVELOPE_INVALID", "the envelope is addressed to 11111111-1", { reason: "not_addressed" });
      const imported = received("rcv_10fake", 33, 910, { plazo_hasta: null, recibido_sii_at: null });
      const forged = received("rcv_11fake", 33, 911, { verificacion: { ...OK, firma: "invalida", firma_variante: undefined } });
      docs.push(imported, forged);
      return json(route, 201, { success: true, data: { results: [{ index: 0, success: true, data: imported }, { index: 1, success: true, duplicate: true, data: docs[0] }, { index: 2, success: true, data: forged }] } });
    }
    if (path === "/received/inbox") return json(route, 200, { success: true, data: inbox, pagination: { page: 1, limit: 20, total: inbox.length, total_pages: 1 } });
    const m = /^\/received\/([^/]+)(?:\/(pdf|xml|aceptar|reclamar))?$/.exec(path);
    const doc = docs.find((d) => d.id === m?.[1]);
    if (m && doc) {
      if (m[2] === "pdf") return route.fulfill({ status: 200, contentType: "application/pdf", body: Buffer.from(tinyPdf(`Factura recibida N ${String(doc.folio)}`)) });
      if (m[2] === "xml") return route.fulfill({ status: 200, contentType: "application/xml; charset=ISO-8859-1", body: "<DTE/>" });
      const body = JSON.parse(request.postData() ?? "{}") as Record<string, unknown>;
      if (doc.id === "rcv_03fake" && m[2] === "aceptar") return fail(route, 409, "CONFLICT", "the SII does not have the document yet", { reason: "not_at_sii", sii_codigo: 18 });
      if (doc.id === "rcv_03fake" && m[2] === "reclamar") return fail(route, 503, "UNAVAILABLE", "the tax authority's registry did not answer", { reason: "tax_authority" });
      const event = (codigo: string) => ({ codigo, descripcion: DESCRIPTIONS[codigo] ?? codigo, rut_responsable: "11111111-1", fecha: new Date().toISOString(), origen: "timbre" });
      if (m[2] === "aceptar") {
        doc.estado = "ACEPTADO";
        doc.eventos.push(event("ACD"), ...(body.recibo_mercaderias === true ? [event("ERM")] : []));
        return json(route, 200, { success: true, data: doc });
      }
      if (m[2] === "reclamar") {
        doc.estado = "RECLAMADO";
        doc.eventos.push(event(String(body.accion)));
        return json(route, 200, { success: true, data: doc });
      }
      return json(route, 200, { success: true, data: doc });
    }
    if (path === `/businesses/${business.id}`) {
      if (method === "PUT") {
        const body = JSON.parse(request.postData() ?? "{}") as { intercambio?: { imap_url?: string | null } };
        const url = body.intercambio?.imap_url;
        const imap = url ? { host: "mail.empresa.cl", user: "dte@empresa.cl", ultimo_chequeo_at: "2026-11-22T12:00:00.000Z", error: "auth" } : null;
        biz = { ...biz, intercambio: { email: (biz.intercambio as { email: string }).email, imap } };
      }
      return json(route, 200, { success: true, data: biz });
    }
    if (path === "/dte/dte_00fake/enviar") {
      const body = JSON.parse(request.postData() ?? "{}") as { email?: string };
      delivery = { ...delivery, destinatarios: body.email ? [body.email] : delivery.destinatarios, estado: "PENDIENTE", error: null };
      return json(route, 202, { success: true, data: delivery });
    }
    if (path === "/dte/dte_00fake" && method === "GET") {
      const doc = documents.find((d) => d.id === "dte_00fake");
      if (!doc || request.headers().authorization === undefined) return route.fallback();
      return json(route, 200, { success: true, data: { ...detail(doc), intercambio: delivery } });
    }
    return route.fallback();
  });
  return { docs, bodies };
}

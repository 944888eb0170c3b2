import { siiTimestamp } from "./answers.js";
import { tokenFromCookie } from "./credentials.js";
import { documentStateInfo } from "../codes/document-states.js";
import { countsOf, estadoAt } from "./envelopes.js";
import { documentEstado } from "./soap-queries.js";
import type { SandboxState } from "./state.js";

/**
 * GET /recursos/v1/boleta.electronica.envio/{rut}-{dv}-{trackid}: 401 without a valid boleta token, 404 for an
 * unknown envelope, else the JSON status with `estadistica` and `detalle_rep_rech` (rejected and repaired
 * documents) once processed.
 *
 * @example
 * handleBoletaStatus(state, request, "76192083-9", "0000000001");
 */
export function handleBoletaStatus(state: SandboxState, req: Request, rut: string, trackId: string): Response {
  const token = state.credentials.checkToken(tokenFromCookie(req.headers.get("cookie")), "boleta");
  if (token.status !== "valid") return new Response("NO ESTA AUTENTICADO", { status: 401 });
  const record = state.envelopes.get(trackId.padStart(10, "0"));
  if (record === undefined || record.rutEmisor.toUpperCase() !== rut.toUpperCase()) return Response.json({ error: "no encontrado" }, { status: 404 });
  const estado = estadoAt(record, state.settings.now().getTime(), state.settings.stepMs);
  const processed = estado === record.final;
  const singleTipo = new Set(record.documents.map((d) => d.tipo)).size === 1;
  return Response.json({
    rut_emisor: record.rutEmisor,
    rut_envia: record.rutEnvia,
    trackid: Number(record.trackId),
    fecha_recepcion: siiTimestamp(new Date(record.receivedAt)),
    estado,
    estadistica: processed ? countsOf(record.documents) : [],
    detalle_rep_rech: processed
      ? [
          ...record.envelopeErrors.map((e) => ({ tipo: null, folio: null, estado: record.final, descripcion: e.descripcion,
            error: [{ ...splitCode(e.codigo, 3), linea: null, descripcion: e.descripcion, detalle: null }] })),
          ...record.documents.filter((d) => d.estado !== "DOK").map((d) => ({
            // As in the SII's published example: a line may leave out its tipo (here: when the envelope has one
            // tipo), and an error's code comes apart as seccion, nivel and a numeric codigo.
            ...(singleTipo ? {} : { tipo: d.tipo }),
            folio: d.folio, estado: d.estado === "RCH" ? "RCH" : "RPR", descripcion: d.errors[0]?.descripcion ?? "",
            error: d.errors.map((e) => ({ ...splitCode(e.codigo, e.nivel), linea: null, descripcion: e.descripcion, detalle: null })),
          })),
        ]
      : [],
  });
}

/**
 * GET /recursos/v1/boleta.electronica/{rut}-{dv}-{tipo}-{folio}/estado?rut_receptor=&dv_receptor=&monto=&fechaEmision=DD-MM-YYYY:
 * one boleta, judged as QueryEstDte judges a DTE (`documentEstado`), answered as the SII's OpenAPI describes it:
 * 200 `{ codigo, descripcion }`; 401 without a valid boleta token; 400 (plain text) without `monto` and a valid
 * `fechaEmision`. The receiver is compared only when given (a consumer's boleta may be asked for without it).
 *
 * @example
 * handleBoletaDocumentStatus(state, request, "76192083-9", 39, 12);
 */
export function handleBoletaDocumentStatus(state: SandboxState, req: Request, rut: string, tipo: number, folio: number): Response {
  const token = state.credentials.checkToken(tokenFromCookie(req.headers.get("cookie")), "boleta");
  if (token.status !== "valid") return new Response("NO ESTA AUTENTICADO", { status: 401 });
  const params = new URL(req.url).searchParams;
  const fecha = /^(\d{2})-(\d{2})-(\d{4})$/.exec(params.get("fechaEmision") ?? "");
  const monto = params.get("monto") ?? "";
  if (!fecha || !/^\d+$/.test(monto)) return new Response("Parámetros monto y fechaEmision (DD-MM-AAAA) requeridos", { status: 400 });
  const receptor = params.get("rut_receptor");
  const query = { rutCompania: rut, tipo, folio, fecha: `${fecha[3]}-${fecha[2]}-${fecha[1]}`, monto: Number(monto) };
  const codigo = documentEstado(state, receptor ? { ...query, rutReceptor: `${receptor}-${(params.get("dv_receptor") ?? "").toUpperCase()}` } : query);
  return Response.json({ codigo, descripcion: documentStateInfo(codigo)?.descripcion ?? codigo });
}

/** `HED-3-100` → `{ seccion: "HED", nivel: 3, codigo: 100 }`, the REST answer's form; other codes stay whole. */
function splitCode(code: string, nivel: number): { seccion: string; nivel: number; codigo: number | string } {
  const parts = /^([A-Z]{2,4})-(\d)-(\d+)$/.exec(code);
  if (!parts) return { seccion: code.split("-")[0] ?? "", nivel, codigo: code };
  return { seccion: parts[1]!, nivel: Number(parts[2]), codigo: Number(parts[3]) };
}

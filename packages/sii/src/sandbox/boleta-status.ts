import { siiTimestamp } from "./answers.js";
import { tokenFromCookie } from "./credentials.js";
import { countsOf, estadoAt } from "./envelopes.js";
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
            error: [{ seccion: e.codigo.split("-")[0] ?? "ENV", linea: null, nivel: 3, codigo: e.codigo, descripcion: e.descripcion, detalle: null }] })),
          ...record.documents.filter((d) => d.estado !== "DOK").map((d) => ({
            tipo: d.tipo, folio: d.folio, estado: d.estado === "RCH" ? "RCH" : "RPR", descripcion: d.errors[0]?.descripcion ?? "",
            error: d.errors.map((e) => ({ seccion: e.codigo.split("-")[0] ?? "", linea: null, nivel: e.nivel, codigo: e.codigo, descripcion: e.descripcion, detalle: null })),
          })),
        ]
      : [],
  });
}

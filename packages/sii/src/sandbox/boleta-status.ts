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

/** `HED-3-100` → `{ seccion: "HED", nivel: 3, codigo: 100 }`, the REST answer's form; other codes stay whole. */
function splitCode(code: string, nivel: number): { seccion: string; nivel: number; codigo: number | string } {
  const parts = /^([A-Z]{2,4})-(\d)-(\d+)$/.exec(code);
  if (!parts) return { seccion: code.split("-")[0] ?? "", nivel, codigo: code };
  return { seccion: parts[1]!, nivel: Number(parts[2]), codigo: Number(parts[3]) };
}

import type { TipoCounts } from "./parse-est-up.js";

/** One document's verdict in a boleta REST status (`detalle_rep_rech`). */
export interface DocumentVerdict {
  tipo: number;
  folio: number;
  estado: string;
  errors: Array<{ codigo: string; descripcion: string; detalle?: string }>;
}

/** The boleta REST upload answer. */
export interface BoletaUploadAnswer {
  trackId: string;
  estado: string | null;
  fechaRecepcion: string | null;
}

/** The boleta REST envelope status. */
export interface BoletaStatusAnswer {
  trackId: string | null;
  estado: string | null;
  counts: TipoCounts[];
  documents: DocumentVerdict[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" ? v : typeof v === "number" ? String(v) : null);
const num = (v: unknown): number => (typeof v === "number" ? v : typeof v === "string" ? Number(v) || 0 : 0);
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

/**
 * Reads `{ trackid, estado, fecha_recepcion, … }`; `null` without a track id.
 *
 * @example
 * parseBoletaUpload({ trackid: 12345, estado: "REC" })?.trackId; // "12345"
 */
export function parseBoletaUpload(json: unknown): BoletaUploadAnswer | null {
  if (!isObject(json)) return null;
  const trackId = str(json["trackid"]);
  if (trackId === null || trackId === "") return null;
  return { trackId, estado: str(json["estado"]), fechaRecepcion: str(json["fecha_recepcion"]) };
}

/**
 * Reads `{ estado, estadistica: [...], detalle_rep_rech: [...] }`.
 *
 * @example
 * parseBoletaStatus(json).counts[0]?.aceptados;
 */
export function parseBoletaStatus(json: unknown): BoletaStatusAnswer {
  const root = isObject(json) ? json : {};
  return {
    trackId: str(root["trackid"]),
    estado: str(root["estado"]),
    counts: list(root["estadistica"]).map((s) => ({
      tipo: num(s["tipo"]),
      informados: num(s["informados"]),
      aceptados: num(s["aceptados"]),
      rechazados: num(s["rechazados"]),
      reparos: num(s["reparos"]),
    })),
    documents: list(root["detalle_rep_rech"]).map((d) => ({
      tipo: num(d["tipo"]),
      folio: num(d["folio"]),
      estado: str(d["estado"]) ?? "",
      errors: list(d["error"]).map((e) => {
        const detalle = str(e["detalle"]);
        return {
          codigo: str(e["codigo"]) ?? "",
          descripcion: str(e["descripcion"]) ?? "",
          ...(detalle === null ? {} : { detalle }),
        };
      }),
    })),
  };
}

import type { TipoCounts } from "./parse-est-up.js";

/** One document's verdict in a boleta REST status (`detalle_rep_rech`). */
export interface DocumentVerdict {
  /**
   * The line's tipo; when the SII leaves it out (its published examples do), the envelope's only tipo, or null
   * when its statistics name several (then a folio alone does not say which document the line is about).
   */
  tipo: number | null;
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
  const counts = list(root["estadistica"]).map((s) => ({
    tipo: num(s["tipo"]),
    informados: num(s["informados"]),
    aceptados: num(s["aceptados"]),
    rechazados: num(s["rechazados"]),
    reparos: num(s["reparos"]),
  }));
  const tipos = new Set(counts.map((c) => c.tipo));
  const onlyTipo = tipos.size === 1 ? [...tipos][0]! : null;
  return {
    trackId: str(root["trackid"]),
    estado: str(root["estado"]),
    counts,
    documents: list(root["detalle_rep_rech"]).map((d) => ({
      tipo: d["tipo"] === undefined || d["tipo"] === null ? onlyTipo : num(d["tipo"]),
      folio: num(d["folio"]),
      estado: str(d["estado"]) ?? "",
      errors: list(d["error"]).map((e) => {
        const detalle = str(e["detalle"]);
        return {
          codigo: errorCode(e),
          descripcion: str(e["descripcion"]) ?? "",
          ...(detalle === null ? {} : { detalle }),
        };
      }),
    })),
  };
}

/**
 * An error's code as the SII's lists write it, `SECCION-NIVEL-CODIGO` (`HED-3-100`): the REST answer gives the
 * three apart (`seccion: "HED", nivel: 3, codigo: 100`); a `codigo` already written whole is kept.
 */
function errorCode(e: Json): string {
  const codigo = str(e["codigo"]) ?? "";
  const seccion = str(e["seccion"]);
  const nivel = str(e["nivel"]);
  if (!/^\d+$/.test(codigo) || !seccion || !nivel) return codigo;
  return `${seccion}-${nivel}-${codigo}`;
}

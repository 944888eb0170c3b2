import { elementText, findElements, firstElement, leafElements } from "../protocol/xml-text.js";

/** Counts of one document type in an envelope. */
export interface TipoCounts {
  tipo: number;
  informados: number;
  aceptados: number;
  rechazados: number;
  reparos: number;
}

/** QueryEstUp's inner answer. */
export interface EstUpAnswer {
  estado: string | null;
  glosa: string | null;
  errCode: string | null;
  trackId: string | null;
  numAtencion: string | null;
  counts: TipoCounts[];
}

const COUNT_FIELDS = { INFORMADOS: "informados", ACEPTADOS: "aceptados", RECHAZADOS: "rechazados", REPAROS: "reparos" } as const;

/**
 * Parses QueryEstUp's `<SII:RESPUESTA>`: header fields and the `TIPO_DOCTO…REPAROS` tuples (which repeat per
 * type inside RESP_BODY, or come in one RESP_BODY each).
 *
 * @example
 * parseEstUpAnswer(inner).counts; // [{ tipo: 33, informados: 1, aceptados: 1, rechazados: 0, reparos: 0 }]
 */
export function parseEstUpAnswer(xml: string): EstUpAnswer {
  const header = firstElement(xml, "RESP_HDR")?.inner ?? xml;
  const counts: TipoCounts[] = [];
  for (const body of findElements(xml, "RESP_BODY")) {
    let current: TipoCounts | null = null;
    for (const [name, text] of leafElements(body.inner)) {
      if (name === "TIPO_DOCTO") {
        current = { tipo: Number(text), informados: 0, aceptados: 0, rechazados: 0, reparos: 0 };
        counts.push(current);
      } else if (current !== null && name in COUNT_FIELDS) {
        current[COUNT_FIELDS[name as keyof typeof COUNT_FIELDS]] = Number(text) || 0;
      }
    }
  }
  return {
    estado: elementText(header, "ESTADO"),
    glosa: elementText(header, "GLOSA"),
    errCode: elementText(header, "ERR_CODE"),
    trackId: elementText(header, "TRACKID"),
    numAtencion: elementText(header, "NUM_ATENCION"),
    counts,
  };
}

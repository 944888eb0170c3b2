import { elementText, firstElement } from "../protocol/xml-text.js";

/** QueryEstDte's inner answer. */
export interface EstDteAnswer {
  estado: string | null;
  glosaEstado: string | null;
  errCode: string | null;
  glosaErr: string | null;
  numAtencion: string | null;
}

/**
 * Parses QueryEstDte's `<SII:RESPUESTA>`.
 *
 * @example
 * parseEstDteAnswer(inner).estado; // "DOK"
 */
export function parseEstDteAnswer(xml: string): EstDteAnswer {
  const header = firstElement(xml, "RESP_HDR")?.inner ?? xml;
  return {
    estado: elementText(header, "ESTADO"),
    glosaEstado: elementText(header, "GLOSA_ESTADO"),
    errCode: elementText(header, "ERR_CODE"),
    glosaErr: elementText(header, "GLOSA_ERR"),
    numAtencion: elementText(header, "NUM_ATENCION"),
  };
}

import { elementText } from "../protocol/xml-text.js";

/** The CrSeed / boleta seed answer. */
export interface SeedAnswer {
  estado: string | null;
  semilla: string | null;
}

/** The GetTokenFromSeed / boleta token answer. */
export interface TokenAnswer {
  estado: string | null;
  glosa: string | null;
  token: string | null;
}

/**
 * Reads `<SII:RESPUESTA>` of CrSeed (any prefix, body before or after header).
 *
 * @example
 * parseSeedAnswer("<SII:RESPUESTA><SII:RESP_BODY><SEMILLA>1</SEMILLA></SII:RESP_BODY><SII:RESP_HDR><ESTADO>00</ESTADO></SII:RESP_HDR></SII:RESPUESTA>");
 */
export function parseSeedAnswer(xml: string): SeedAnswer {
  return { estado: elementText(xml, "ESTADO"), semilla: elementText(xml, "SEMILLA") };
}

/**
 * Reads `<SII:RESPUESTA>` of GetTokenFromSeed.
 *
 * @example
 * parseTokenAnswer(inner).token; // "XAuSbYXiNh9Ik"
 */
export function parseTokenAnswer(xml: string): TokenAnswer {
  return { estado: elementText(xml, "ESTADO"), glosa: elementText(xml, "GLOSA"), token: elementText(xml, "TOKEN") };
}

import { parseRut } from "@timbre/core/rut";

/**
 * Splits a RUT into the body and DV the SII's parameters want (no dots, no leading zeros, uppercase K).
 *
 * @example
 * rutParts("07880442-4"); // { body: "7880442", dv: "4" }
 */
export function rutParts(rut: string): { body: string; dv: string } {
  return parseRut(rut);
}

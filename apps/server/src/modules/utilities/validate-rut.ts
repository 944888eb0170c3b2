import { cleanRut, computeDv, formatRut, normalizeRut, tryParseRut } from "@timbre/core/rut";

export interface RutValidation {
  valid: boolean;
  rut: string | null;
  formateado: string | null;
  dv_esperado: string | null;
}

/** Any writing of a RUT → whether it is valid, its canonical and printed forms, and the expected check digit. */
export function validateRut(input: string): RutValidation {
  const valid = tryParseRut(input) !== null;
  const clean = cleanRut(input);
  const body = clean.slice(0, -1).replace(/^0+(?=\d)/, "");
  const dv = /^\d{1,9}$/.test(body) ? computeDv(body) : null;
  return {
    valid,
    rut: valid ? normalizeRut(input) : null,
    formateado: valid ? formatRut(input) : null,
    dv_esperado: dv,
  };
}

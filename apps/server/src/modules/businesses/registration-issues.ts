/**
 * What the SII has registered about a business that the server can check itself, before any document reaches the SII:
 * its economic activities (HED-3-861 otherwise) and its resolution (CRT-3-19 "Fecha/Numero Resolucion Invalido").
 */
import type { ValidationIssue } from "@timbre/core/errors";
import { isSiiActivityCode } from "@timbre/core/tables";

/** `acteco`: each one a code of the SII's list of economic activities (`@timbre/core/tables`, source named there). */
export function actecoIssues(acteco: readonly number[] | undefined): ValidationIssue[] {
  return (acteco ?? []).flatMap((code, i) => Number.isInteger(code) && !isSiiActivityCode(code)
    ? [{ path: `acteco[${i}]`, reason: "enum", message: `${code} is not in the SII's list of economic activity codes (www.sii.cl, "Códigos de actividad económica")` }]
    : []);
}

/**
 * `resolucion`: dated at most today in Chile (`today`, `YYYY-MM-DD`). The number is the production resolution; 0 is the
 * certification environment's (see `modules/dte/resolution.ts` for which one an envelope carries).
 */
export function resolutionIssues(resolucion: { numero: number; fecha: string } | null | undefined, today: string): ValidationIssue[] {
  if (!resolucion || resolucion.fecha <= today) return [];
  return [{ path: "resolucion.fecha", reason: "date_in_future", message: `an SII resolution cannot be dated after today (${today}) in Chile` }];
}

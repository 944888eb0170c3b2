/** `GET /issuers/{rut}` (API.md §14): one issuer of the SII's list of the key's environment; 422 for a malformed RUT, 404 when not listed. */
import { isValidRut } from "@timbre/core/rut";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { notFound, validationError } from "../../http/errors.js";
import { issuerOf } from "./issuer-of.js";

export interface PresentedIssuer {
  rut: string;
  razon_social: string;
  resolucion: { numero: number; fecha: string } | null;
  correo_intercambio: string | null;
}

export async function findIssuer(deps: Deps, scope: BusinessScope, rut: string): Promise<PresentedIssuer> {
  if (!isValidRut(rut)) throw validationError([{ path: "rut", reason: "invalid_rut", message: "rut is not a valid RUT (digits, check digit)" }]);
  const issuer = await issuerOf(deps, rut, scope.environment);
  if (!issuer) throw notFound("issuer");
  return { rut: issuer.rut, razon_social: issuer.razonSocial, resolucion: issuer.resolucion, correo_intercambio: issuer.correoIntercambio };
}

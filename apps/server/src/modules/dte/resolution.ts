/**
 * Which SII resolution an envelope's carátula (FchResol, NroResol) and the printed document carry, per environment.
 *
 * API.md gives a business one `resolucion`; the SII's two environments want different ones (CRT-3-19 "Fecha/Numero
 * Resolucion Invalido" otherwise): certificación (`test`) always NroResol 0, producción (`live`) the number of the
 * resolution that authorised the business. So `resolucion` is the production resolution, and `test` sends number 0
 * with the date of a stored `{ numero: 0, fecha }` (a business still in certification), else the signing certificate's
 * start date, as before a business has any resolution.
 */
import type { Resolution } from "@timbre/core";
import type { BusinessRow } from "../../db/businesses.js";
import type { BusinessScope } from "../../http/auth.js";
import type { SigningIdentityInfo } from "./signing-identity.js";

/** The resolution for `environment`; null in `live` without a production resolution (not authorised). */
export function resolutionOf(business: BusinessRow, environment: BusinessScope["environment"], identity: SigningIdentityInfo | null): Resolution | null {
  const stored = business.resolucionNumero !== null && business.resolucionFecha !== null
    ? { numero: business.resolucionNumero, fecha: business.resolucionFecha }
    : null;
  if (environment === "live") return stored !== null && stored.numero > 0 ? stored : null;
  if (stored !== null && stored.numero === 0) return stored;
  const fecha = identity ? identity.validFrom.toISOString().slice(0, 10) : (business.certificate?.valid_from ?? business.createdAt.toISOString()).slice(0, 10);
  return { numero: 0, fecha };
}

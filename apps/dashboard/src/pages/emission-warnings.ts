/**
 * What stands in the way of emitting, above the emission form and the spreadsheet import alike: a business without a
 * certificate (nothing can be signed), production without the SII resolution, and production itself.
 */
import type { Business, Environment } from "@timbre/sdk";
import { link, notice } from "../ui/components.js";

export function emissionWarnings(b: Business, environment: Environment, plural = false): Array<HTMLElement | null> {
  return [
    b.certificate ? null : notice("warn", "La empresa no tiene certificado digital, necesario para firmar. ", link(`/dashboard/empresas/${b.id}`, "Súbelo en la ficha de la empresa"), "."),
    environment === "live" && !b.resolucion
      ? notice("warn", "Para emitir en producción la empresa necesita el número y la fecha de su resolución del SII. ", link(`/dashboard/empresas/${b.id}`, "Complétalos"), ".")
      : null,
    environment === "live" ? notice("info", plural ? "Ambiente de producción: los documentos tendrán validez tributaria." : "Ambiente de producción: el documento tendrá validez tributaria.") : null,
  ];
}

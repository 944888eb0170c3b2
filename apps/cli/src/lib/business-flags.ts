import { Flags } from "@oclif/core";
import type { Business, BusinessUpdateParams } from "@timbre/sdk";
import { renderFields } from "./table.js";

/** Field flags shared by `businesses create` and `businesses update`. */
export const businessFieldFlags = {
  "razon-social": Flags.string({ description: "legal name" }),
  giro: Flags.string({ description: "line of business" }),
  acteco: Flags.integer({ description: "economic activity code (repeat up to 4)", multiple: true }),
  direccion: Flags.string({ description: "address" }),
  comuna: Flags.string({ description: "comuna" }),
  ciudad: Flags.string({ description: "city" }),
  email: Flags.string({ description: "contact email" }),
  telefono: Flags.string({ description: "phone" }),
  "sucursal-sii": Flags.string({ description: "the SII's code of the branch (CdgSIISucur, digits)" }),
  "unidad-sii": Flags.string({ description: "SII unit printed under the PDF's box, e.g. \"Santiago Oriente\" (default: the comuna)" }),
  "webhook-url": Flags.string({ description: "where to deliver webhook events" }),
  "resolucion-numero": Flags.integer({ description: "SII resolution number (live emission)" }),
  "resolucion-fecha": Flags.string({ description: "SII resolution date YYYY-MM-DD" }),
};

type FieldFlags = {
  [K in keyof typeof businessFieldFlags]?: K extends "acteco" ? number[] : K extends "resolucion-numero" ? number : string;
};

/** Maps the field flags to API fields, leaving out what was not given. */
export function businessFieldsFromFlags(flags: FieldFlags): BusinessUpdateParams {
  const fields: BusinessUpdateParams = {};
  if (flags["razon-social"] !== undefined) fields.razon_social = flags["razon-social"];
  if (flags.giro !== undefined) fields.giro = flags.giro;
  if (flags.acteco !== undefined) fields.acteco = flags.acteco;
  if (flags.direccion !== undefined) fields.direccion = flags.direccion;
  if (flags.comuna !== undefined) fields.comuna = flags.comuna;
  if (flags.ciudad !== undefined) fields.ciudad = flags.ciudad;
  if (flags.email !== undefined) fields.email = flags.email;
  if (flags.telefono !== undefined) fields.telefono = flags.telefono;
  if (flags["sucursal-sii"] !== undefined) fields.sucursal_sii = flags["sucursal-sii"];
  if (flags["unidad-sii"] !== undefined) fields.unidad_sii = flags["unidad-sii"];
  if (flags["webhook-url"] !== undefined) fields.webhook_url = flags["webhook-url"];
  if (flags["resolucion-numero"] !== undefined && flags["resolucion-fecha"] !== undefined) {
    fields.resolucion = { numero: flags["resolucion-numero"], fecha: flags["resolucion-fecha"] };
  }
  return fields;
}

/** Human view of one business (and its one-time webhook secret, if present). */
export function renderBusiness(business: Business): string {
  const lines = renderFields({
    id: business.id,
    rut: business.rut,
    razon_social: business.razon_social,
    giro: business.giro,
    acteco: business.acteco.join(", "),
    direccion: [business.direccion, business.comuna, business.ciudad].filter(Boolean).join(", "),
    unidad_sii: business.unidad_sii ?? `(none: the PDF prints the comuna, ${business.comuna})`,
    sucursal_sii: business.sucursal_sii ?? "(none: head office)",
    resolucion: business.resolucion ? `N° ${business.resolucion.numero} del ${business.resolucion.fecha}` : "(none)",
    webhook_url: business.webhook_url ?? "(none)",
    certificate: business.certificate
      ? `${business.certificate.nombre_titular} (${business.certificate.rut_titular ?? "?"}), valid to ${business.certificate.valid_to}`
      : "(none: `timbre certificates upload`)",
    created_at: business.created_at,
  });
  return business.webhook_secret
    ? `${lines}\n\nWebhook secret (shown only now, store it): ${business.webhook_secret}`
    : lines;
}

/** Body fields → column values, shared by create and update. */
import type { Static } from "@sinclair/typebox";
import type { ValidationIssue } from "@timbre/core/errors";
import { siiTextIssues } from "@timbre/core/xml";
import type { Deps } from "../../deps.js";
import type { businesses } from "../../db/businesses.js";
import { chileToday } from "../../time.js";
import { checkWebhookUrl } from "./check-webhook-url.js";
import { checkImapUrl } from "./imap-url.js";
import { actecoIssues, resolutionIssues } from "./registration-issues.js";
import type { UpdateBusinessBody } from "./schemas.js";

type Fields = Omit<Static<typeof UpdateBusinessBody>, "rut">;
type Columns = Partial<typeof businesses.$inferInsert>;

export function businessColumns(input: Fields): Columns {
  const out: Columns = {};
  if (input.razon_social !== undefined) out.razonSocial = input.razon_social.trim();
  if (input.giro !== undefined) out.giro = input.giro.trim();
  if (input.acteco !== undefined) out.acteco = input.acteco;
  if (input.direccion !== undefined) out.direccion = input.direccion.trim();
  if (input.comuna !== undefined) out.comuna = input.comuna.trim();
  if (input.ciudad !== undefined) out.ciudad = input.ciudad;
  if (input.email !== undefined) out.email = input.email;
  if (input.telefono !== undefined) out.telefono = input.telefono;
  if (input.sucursal_sii !== undefined) out.sucursalSii = branchCode(input.sucursal_sii);
  if (input.unidad_sii !== undefined) out.unidadSii = input.unidad_sii?.trim() || null;
  if (input.resolucion !== undefined) {
    out.resolucionNumero = input.resolucion?.numero ?? null;
    out.resolucionFecha = input.resolucion?.fecha ?? null;
  }
  if (input.webhook_url !== undefined) out.webhookUrl = input.webhook_url;
  return out;
}

/** `sucursal_sii` as stored: its digits as a string; an empty string clears it. */
function branchCode(value: string | number | null): string | null {
  if (value === null) return null;
  return String(value).trim() || null;
}

/**
 * The texts every document of the business carries (the issuer in its XML, the printed header), as they are stored:
 * checked there, so that no later emission fails on `emisor.*`, a field its caller never sent (ISO-8859-1, one line).
 */
function storedTexts(input: Fields): Record<string, unknown> {
  const c = businessColumns(input);
  return { razon_social: c.razonSocial, giro: c.giro, direccion: c.direccion, comuna: c.comuna, ciudad: c.ciudad, email: c.email, telefono: c.telefono, unidad_sii: c.unidadSii };
}

/** Rules beyond the schema (every issue at once). */
export function businessIssues(deps: Deps, input: Fields): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (typeof input.webhook_url === "string") {
    const issue = checkWebhookUrl(input.webhook_url, {
      requireHttps: deps.config.siiMode === "produccion",
      allowPrivate: deps.config.webhookAllowPrivate,
    });
    if (issue) issues.push(issue);
  }
  const imapUrl = input.intercambio?.imap_url;
  if (typeof imapUrl === "string") {
    const issue = checkImapUrl(imapUrl, { allowPrivate: deps.config.webhookAllowPrivate });
    if (issue) issues.push(issue);
  }
  const branch = input.sucursal_sii === undefined ? null : branchCode(input.sucursal_sii);
  if (branch !== null && !/^\d{1,9}$/.test(branch)) {
    issues.push({ path: "sucursal_sii", reason: "format", message: "must be the SII's code of the branch (CdgSIISucur): 1 to 9 digits" });
  }
  for (const key of ["razon_social", "giro", "direccion", "comuna"] as const) {
    const value = input[key];
    if (value !== undefined && value.trim() === "") issues.push({ path: key, reason: "min_length", message: "must not be blank" });
  }
  for (const [key, text] of Object.entries(storedTexts(input))) issues.push(...siiTextIssues(key, text, { singleLine: true }));
  issues.push(...actecoIssues(input.acteco), ...resolutionIssues(input.resolucion, chileToday(deps.now())));
  return issues;
}

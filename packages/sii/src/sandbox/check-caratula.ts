import { tryParseRut } from "@timbre/core/rut";
import { describeSiiCode } from "../codes/describe.js";
import { certificateFromXml, holderRutFromCertificate } from "./certificate-holder.js";
import type { EnvelopeFacts } from "./read-envelope.js";

const SII = "60803000-K";
const norm = (rut: string | null | undefined): string | null => {
  const parsed = rut ? tryParseRut(rut) : null;
  return parsed ? `${parsed.body}-${parsed.dv}` : null;
};

/** What the carátula's resolution is checked against: the environment and the sandbox's today (`YYYY-MM-DD`). */
export interface ResolutionRule {
  environment: "certificacion" | "produccion";
  today: string;
}

/**
 * CRT-3-19 "Fecha/Numero Resolucion Invalido" (observed in the SII's result mails): certificación takes NroResol 0,
 * producción a resolution number above 0; FchResol a real date, not after today and not before the DTE system
 * (2002-08-01, the format manual's earliest date). The sandbox does not know each company's resolution.
 */
function resolutionProblem(c: EnvelopeFacts["caratula"], rule: ResolutionRule): string | null {
  const numero = c.nroResol !== null && /^\d{1,6}$/.test(c.nroResol) ? Number(c.nroResol) : null;
  const fecha = c.fchResol ?? "";
  if (numero === null) return `NroResol ${c.nroResol ?? "ausente"}`;
  if (rule.environment === "certificacion" && numero !== 0) return `NroResol ${numero}: en certificación es 0`;
  if (rule.environment === "produccion" && numero === 0) return "NroResol 0: en producción va el número de la resolución de la empresa";
  if (!/^\d{4}-\d{2}-\d{2}$/.test(fecha) || Number.isNaN(Date.parse(fecha))) return `FchResol ${fecha || "ausente"}`;
  if (fecha > rule.today) return `FchResol ${fecha} posterior a hoy (${rule.today})`;
  if (fecha < "2002-08-01") return `FchResol ${fecha} anterior a 2002-08-01`;
  return null;
}

/**
 * The carátula checks behind `RCT`: RutReceptor is the SII (CRT-3-18), the resolution of the environment (CRT-3-19),
 * RutEnvia is the holder of the certificate that signed the envelope and the uploader (SBX-3-1, the sandbox's own
 * code), RutEmisor is the uploading company and every DTE's issuer, and SubTotDTE matches the DTEs. Returns the
 * problems (empty = OK).
 *
 * @example
 * checkCaratula(facts, envelopeText, { rutSender: "11111111-1", rutCompany: "76192083-9" }, { environment: "certificacion", today: "2026-01-15" }); // []
 */
export function checkCaratula(
  facts: EnvelopeFacts, text: string, upload: { rutSender: string; rutCompany: string }, resolution: ResolutionRule,
): Array<{ codigo: string; descripcion: string }> {
  const problems: Array<{ codigo: string; descripcion: string }> = [];
  const add = (codigo: string, detail: string) => problems.push({ codigo, descripcion: `${describeSiiCode(codigo).descripcion}: ${detail}` });
  const c = facts.caratula;
  if (norm(c.rutReceptor) !== SII) add("CRT-3-18", `RutReceptor ${c.rutReceptor ?? "ausente"}`);
  const badResolution = resolutionProblem(c, resolution);
  if (badResolution !== null) add("CRT-3-19", badResolution);
  const der = certificateFromXml(text, "last");
  const holder = der ? holderRutFromCertificate(der) : null;
  const envia = norm(c.rutEnvia);
  if (envia === null || envia !== holder) add("SBX-3-1", `RutEnvia ${c.rutEnvia ?? "ausente"}, firmante ${holder ?? "sin RUT"}`);
  if (envia !== norm(upload.rutSender)) add("SBX-3-1", `RutEnvia ${c.rutEnvia ?? "ausente"} distinto del remitente ${upload.rutSender}`);
  const emisor = norm(c.rutEmisor);
  if (emisor === null || emisor !== norm(upload.rutCompany)) problems.push({ codigo: "RCT", descripcion: `RutEmisor ${c.rutEmisor ?? "ausente"} distinto de la empresa ${upload.rutCompany}` });
  if (facts.dtes.some((d) => norm(d.rutEmisor) !== emisor)) problems.push({ codigo: "RCT", descripcion: "DTE de un emisor distinto al de la carátula" });
  const declared = new Map(c.subtotales.map((s) => [s.tipo, s.cantidad]));
  const actual = new Map<number, number>();
  for (const d of facts.dtes) actual.set(d.tipo, (actual.get(d.tipo) ?? 0) + 1);
  const same = declared.size === actual.size && [...actual].every(([tipo, n]) => declared.get(tipo) === n);
  if (!same) problems.push({ codigo: "RCT", descripcion: "SubTotDTE no coincide con los DTE del envío" });
  return problems;
}

import { tryParseRut } from "@timbre/core/rut";
import { describeSiiCode } from "../codes/describe.js";
import { certificateFromXml, holderRutFromCertificate } from "./certificate-holder.js";
import type { EnvelopeFacts } from "./read-envelope.js";

const SII = "60803000-K";
const norm = (rut: string | null | undefined): string | null => {
  const parsed = rut ? tryParseRut(rut) : null;
  return parsed ? `${parsed.body}-${parsed.dv}` : null;
};

/**
 * The carátula checks behind `RCT`: RutReceptor is the SII (CRT-3-18), RutEnvia is the holder of the
 * certificate that signed the envelope and the uploader (CRT-3-19), RutEmisor is the uploading company and every
 * DTE's issuer, and SubTotDTE matches the DTEs. Returns the problems (empty = OK).
 *
 * @example
 * checkCaratula(facts, envelopeText, { rutSender: "11111111-1", rutCompany: "76192083-9" }); // []
 */
export function checkCaratula(facts: EnvelopeFacts, text: string, upload: { rutSender: string; rutCompany: string }): Array<{ codigo: string; descripcion: string }> {
  const problems: Array<{ codigo: string; descripcion: string }> = [];
  const add = (codigo: string, detail: string) => problems.push({ codigo, descripcion: `${describeSiiCode(codigo).descripcion}: ${detail}` });
  const c = facts.caratula;
  if (norm(c.rutReceptor) !== SII) add("CRT-3-18", `RutReceptor ${c.rutReceptor ?? "ausente"}`);
  const der = certificateFromXml(text, "last");
  const holder = der ? holderRutFromCertificate(der) : null;
  const envia = norm(c.rutEnvia);
  if (envia === null || envia !== holder) add("CRT-3-19", `RutEnvia ${c.rutEnvia ?? "ausente"}, firmante ${holder ?? "sin RUT"}`);
  if (envia !== norm(upload.rutSender)) add("CRT-3-19", `RutEnvia ${c.rutEnvia ?? "ausente"} distinto del remitente ${upload.rutSender}`);
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

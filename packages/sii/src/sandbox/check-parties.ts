import { rutBodyRange } from "@timbre/core";
import { isSiiActivityCode } from "@timbre/core/tables";
import type { DteFacts } from "./read-envelope.js";

/**
 * The first 40 characters of a name, spaces collapsed, accents folded, in capitals: the CAF's `RS` is cut to 40 by the
 * SII, and CAFs often carry names without accents (a reparo for "Café" against "CAFE" would be the sandbox's invention).
 */
const name40 = (text: string) =>
  text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/\s+/g, " ").trim().toUpperCase().slice(0, 40).trim();

/**
 * The issuer's and the receiver's data against what the SII has registered: every `Acteco` in the SII's list of
 * economic activities (HED-3-861; the sandbox knows the list, not each company's registration), the issuer's name as
 * in its CAF (HED-1-863, a reparo), the receiver's RUT in the manual's range (SBX-3-3).
 *
 * @example
 * partyProblems(facts, "SASCO SpA"); // []
 */
export function partyProblems(dte: DteFacts, cafRazonSocial: string | null): string[] {
  const codes: string[] = [];
  if (dte.acteco.some((code) => !/^\d{1,6}$/.test(code) || !isSiiActivityCode(Number(code)))) codes.push("HED-3-861");
  if (cafRazonSocial !== null && dte.rznSoc !== "" && name40(dte.rznSoc) !== name40(cafRazonSocial)) codes.push("HED-1-863");
  if (rutBodyRange(dte.rutRecep) !== "within") codes.push("SBX-3-3");
  return codes;
}

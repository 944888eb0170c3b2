/** Issuer and receiver checks (API paths `emisor.*`, `receptor.*`; lengths from DTE_v10 / EnvioBOLETA_v11). */
import { isNote, isReceipt, rutBodyRange, taxDocumentTipo, type DocumentInput } from "../document/types.js";
import { ANONYMOUS_CONSUMER_RUT, cleanRut } from "../rut/index.js";
import { checkRut, checkText, type IssueList } from "./check-field.js";

/**
 * Issuer checks (`emisor.*`): RUT, names, giro, address lengths, 1–4 activity codes on facturas.
 *
 * @example
 * const list = new IssueList(); validateIssuer(list, input); list.issues // []
 */
export function validateIssuer(list: IssueList, input: DocumentInput): void {
  const e = input.issuer;
  if (typeof e !== "object" || e === null) {
    list.add("emisor", "required", "is required");
    return;
  }
  const receipt = isReceipt(input.tipo);
  checkRut(list, "emisor.rut", e.rut);
  checkText(list, "emisor.razon_social", e.razonSocial, { singleLine: true, required: !receipt, max: 100 });
  checkText(list, "emisor.giro", e.giro, { singleLine: true, required: !receipt, max: 80 });
  checkText(list, "emisor.direccion", e.direccion, { singleLine: true, max: 70 });
  checkText(list, "emisor.comuna", e.comuna, { singleLine: true, max: 20 });
  checkText(list, "emisor.ciudad", e.ciudad, { singleLine: true, max: 20 });
  if (!receipt) {
    checkText(list, "emisor.telefono", e.telefono, { singleLine: true, max: 20 });
    checkText(list, "emisor.email", e.email, { singleLine: true, max: 80 });
    const acteco = Array.isArray(e.acteco) ? e.acteco : [];
    if (acteco.length === 0) list.add("emisor.acteco", "min_items", "at least one SII activity code");
    if (acteco.length > 4) list.add("emisor.acteco", "max_items", "at most 4 activity codes");
    acteco.forEach((code, i) => {
      if (!Number.isInteger(code) || code < 1 || code > 999999) list.add(`emisor.acteco[${i}]`, "format", "a 1–6 digit code");
    });
  }
  if (e.sucursalSii !== undefined && (!Number.isInteger(e.sucursalSii) || e.sucursalSii < 0 || e.sucursalSii > 999999999)) {
    list.add("emisor.sucursal_sii", "format", "up to 9 digits");
  }
}

/**
 * Whether the receiver's giro, address and comuna are required: on facturas and guías de despacho always (formato
 * DTE: "1"); on notes
 * too (API.md §6.3), except on a note that modifies a boleta — the SII has them optional on every note ("3"), and
 * the buyer of a boleta is usually unidentified (66666666-6), so annulling or correcting a sale to a consumer
 * must not demand a giro and an address nobody has. Never on boletas.
 */
function requiresReceiverAddress(input: DocumentInput): boolean {
  if (isReceipt(input.tipo)) return false;
  if (!isNote(input.tipo)) return true;
  return !modifiesReceipt(input);
}

/** Whether a note references a boleta (39/41) — the one kind of note an unidentified consumer may receive. */
function modifiesReceipt(input: DocumentInput): boolean {
  const refs = Array.isArray(input.referencias) ? input.referencias : [];
  return refs.some((ref) => {
    const tipo = typeof ref === "object" && ref !== null ? taxDocumentTipo(ref.tipoDoc) : null;
    return tipo !== null && isReceipt(tipo);
  });
}

/**
 * 66666666-6, the unidentified final consumer, receives boletas (BRIEF §1) and the notes that modify them; the SII
 * refuses it on a factura, a guía or a note to a factura, which must name the buyer.
 */
function anonymousAllowed(input: DocumentInput): boolean {
  return isReceipt(input.tipo) || (isNote(input.tipo) && modifiesReceipt(input));
}

/**
 * Receiver checks (`receptor.*`): RUT, name, giro ≤ 40, address; giro/direccion/comuna required on 33/34/52 and on
 * notes that do not modify a boleta.
 *
 * @example
 * const list = new IssueList(); validateReceiver(list, input); list.issues // []
 */
export function validateReceiver(list: IssueList, input: DocumentInput): void {
  const r = input.receiver;
  if (typeof r !== "object" || r === null) {
    list.add("receptor", "required", "is required");
    return;
  }
  const receipt = isReceipt(input.tipo);
  if (checkRut(list, "receptor.rut", r.rut)) checkRutRange(list, "receptor.rut", r.rut as string);
  if (typeof r.rut === "string" && cleanRut(r.rut) === cleanRut(ANONYMOUS_CONSUMER_RUT) && !anonymousAllowed(input)) {
    list.add("receptor.rut", "not_allowed", `${ANONYMOUS_CONSUMER_RUT} (consumidor final sin RUT) is only for boletas 39/41 and the notes that modify them: give the receptor's RUT`);
  }
  // RznSocRecep is optional in EnvioBOLETA (anonymous consumer 66666666-6); the TED then says "Sin RUT".
  checkText(list, "receptor.razon_social", r.razonSocial, { singleLine: true, required: !receipt, max: 100 });
  const address = requiresReceiverAddress(input);
  checkText(list, "receptor.giro", r.giro, { singleLine: true, required: address, max: 40 });
  checkText(list, "receptor.direccion", r.direccion, { singleLine: true, required: address, max: 70 });
  checkText(list, "receptor.comuna", r.comuna, { singleLine: true, required: address, max: 20 });
  checkText(list, "receptor.ciudad", r.ciudad, { singleLine: true, max: 20 });
  checkText(list, "receptor.email", r.email, { singleLine: true, max: 80 });
  checkText(list, "receptor.contacto", r.contacto, { singleLine: true, max: 80 });
}

/** The manual's range for a party's RUT (RUTRecep: "Cuerpo numérico entre 100.000 y 99 millones"). */
function checkRutRange(list: IssueList, path: string, rut: string): void {
  const where = rutBodyRange(rut);
  if (where === "below") list.add(path, "minimum", "the SII takes RUTs from 100.000");
  else if (where === "above") list.add(path, "maximum", "the SII takes RUTs up to 99.999.999");
}

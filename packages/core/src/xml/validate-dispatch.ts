/**
 * Guía de despacho checks (API paths `traslado.*`, `transporte.*`): IndTraslado, TipoDespacho and the Transporte
 * area, with the lengths of DTE_v10 (`Patente` 8, `NombreChofer` 30, `DirDest` 70, `CmnaDest`/`CiudadDest` 20).
 */
import { EXPORT_TRANSFER_KINDS, isDispatchKind, isTransferKind } from "../document/dispatch-guide.js";
import { isDispatchGuide, type DocumentInput } from "../document/types.js";
import { tryParseRut } from "../rut/index.js";
import { checkRut, checkText, type IssueList } from "./check-field.js";

const isAbsent = (value: unknown): boolean => value === undefined || value === null;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `traslado`: required on a 52 with `indicador` 1–7 (8 and 9, exports, need customs data not taken yet) and an optional
 * `despacho` 1–3; refused on every other tipo, as is `transporte`. On a traslado interno (5) the goods stay with the
 * issuer, so the receiver is the issuer itself. Prices are net (no `precios_brutos`).
 *
 * @example
 * const list = new IssueList(); validateDispatch(list, { ...guia, traslado: undefined });
 * list.issues // [{ path: "traslado.indicador", reason: "required", … }]
 */
export function validateDispatch(list: IssueList, input: DocumentInput): void {
  if (!isDispatchGuide(input.tipo)) {
    if (!isAbsent(input.traslado)) list.add("traslado", "not_allowed", "only a guía de despacho (52) carries traslado (IndTraslado, TipoDespacho)");
    if (!isAbsent(input.transporte)) list.add("transporte", "not_allowed", "only a guía de despacho (52) carries transporte");
    return;
  }
  validateTransfer(list, input);
  validateTransport(list, input.transporte);
  // formato DTE: MntBruto "no corresponde" on a guía — its prices are net, as a factura's.
  if (input.preciosBrutos === true) list.add("precios_brutos", "not_allowed", "a guía de despacho takes net prices (MntBruto does not apply to tipo 52)");
}



function validateTransfer(list: IssueList, input: DocumentInput): void {
  const t: unknown = input.traslado;
  if (isAbsent(t)) {
    list.add("traslado.indicador", "required", "a guía de despacho must say why the goods move (IndTraslado 1–9)");
    return;
  }
  if (!isObject(t)) {
    list.add("traslado", "type", "must be an object");
    return;
  }
  if (isAbsent(t["indicador"])) list.add("traslado.indicador", "required", "a guía de despacho must say why the goods move (IndTraslado 1–9)");
  else if (!isTransferKind(t["indicador"])) {
    list.add("traslado.indicador", "enum", "must be 1 (venta), 2 (venta por efectuar), 3 (consignación), 4 (entrega gratuita), 5 (traslado interno), 6 (otro traslado no venta), 7 (devolución), 8 (traslado para exportación) or 9 (venta para exportación)");
  } else if (EXPORT_TRANSFER_KINDS.includes(t["indicador"])) {
    list.add("traslado.indicador", "not_allowed", "export guías (8, 9) need customs data (Aduana: ports, packages, weights) that Timbre does not take yet");
  } else if (t["indicador"] === 5) {
    // Traslados internos move goods between the issuer's own premises (LibreDTE rewrites the receiver as the issuer).
    const receiver = tryParseRut(input.receiver?.rut ?? "");
    const issuer = tryParseRut(input.issuer?.rut ?? "");
    if (receiver && issuer && (receiver.body !== issuer.body || receiver.dv !== issuer.dv)) {
      list.add("receptor.rut", "not_allowed", "on a traslado interno (IndTraslado 5) the receiver is the issuer itself");
    }
  }
  if (!isAbsent(t["despacho"]) && !isDispatchKind(t["despacho"])) {
    list.add("traslado.despacho", "enum", "must be 1 (por cuenta del receptor), 2 (del emisor a instalaciones del cliente) or 3 (del emisor a otras instalaciones)");
  }
}

function validateTransport(list: IssueList, transporte: unknown): void {
  if (isAbsent(transporte)) return;
  if (!isObject(transporte)) {
    list.add("transporte", "type", "must be an object");
    return;
  }
  checkText(list, "transporte.patente", transporte["patente"], { singleLine: true, max: 8 });
  checkRut(list, "transporte.rut_transportista", transporte["rutTransportista"], { required: false });
  const chofer = transporte["chofer"];
  if (!isAbsent(chofer)) {
    if (!isObject(chofer)) list.add("transporte.chofer", "type", "must be an object");
    else {
      // Chofer is RUTChofer and NombreChofer, both required by the schema.
      checkRut(list, "transporte.chofer.rut", chofer["rut"]);
      checkText(list, "transporte.chofer.nombre", chofer["nombre"], { singleLine: true, required: true, max: 30 });
    }
  }
  const direccion = checkText(list, "transporte.direccion_destino", transporte["direccionDestino"], { singleLine: true, max: 70 });
  // formato DTE: CmnaDest is mandatory on guías that give a destination ("Análogo Dirección Destino").
  checkText(list, "transporte.comuna_destino", transporte["comunaDestino"], { singleLine: true, required: direccion, max: 20 });
  checkText(list, "transporte.ciudad_destino", transporte["ciudadDestino"], { singleLine: true, max: 20 });
}

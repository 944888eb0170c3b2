/**
 * Every problem of an export document (110–112) at once (BRIEF-doctypes §3; formato DTE, columns "FACT EXPO / NC /
 * ND"). Paths are the API's (`moneda`, `exportacion.puerto_embarque`, `exportacion.bultos[0].marcas`).
 */
import { isExportTipo, type ExportDocumentInput } from "../document/export-document.js";
import type { ValidationIssue } from "../errors/index.js";
import {
  COUNTRIES, CUSTOMS_UNITS, EXPORT_PAYMENT_FORMS, PACKAGE_KINDS, PORTS, SALE_CLAUSES, SALE_MODALITIES, TRANSPORT_WAYS,
  CONTAINER_PACKAGE_KINDS, hasCode, isSiiCurrency, siiCurrencyFromIso, type CodeTable,
} from "../tables/index.js";
import { checkDecimal, checkText, IssueList } from "./check-field.js";
import { isDate } from "./constants.js";
import { validateIssuer } from "./validate-parties.js";

/** Paid in advance: `FchCancel` is then required (formato DTE, A15). */
const ADVANCE_PAYMENT = 32;
/** Documents an export note may modify. */
const EXPORT_REFERENCE_TIPOS = ["110", "111", "112"];
/** Customs references (DUS, B/L, AWB, MIC/DTA, Resolución SNA, pasaporte…): informative, never with `CodRef`. */
const CUSTOMS_REFERENCES = /^(80[7-9]|81[0-3])$/;

/**
 * Checks an export document; returns `[]` when valid.
 *
 * @example
 * validateExportDocument({ ...input, moneda: "USD" })
 * // [{ path: "moneda", reason: "enum", message: "the SII's name of the currency: \"DOLAR USA\", not \"USD\"" }]
 */
export function validateExportDocument(input: ExportDocumentInput): ValidationIssue[] {
  const list = new IssueList();
  if (!isExportTipo(input.tipo)) {
    list.add("tipo", "enum", "must be 110, 111 or 112");
    return list.issues;
  }
  if (!Number.isInteger(input.folio) || input.folio < 1 || input.folio > 9_999_999_999) {
    list.add("folio", "format", "a positive integer of up to 10 digits");
  }
  if (typeof input.fecha !== "string" || !isDate(input.fecha)) list.add("fecha", "format", "must be a date YYYY-MM-DD");
  validateIssuer(list, { ...input, tipo: 33, receiver: { rut: "", razonSocial: "" }, items: [] });
  const invoice = input.tipo === 110;
  if (invoice) checkText(list, "emisor.ciudad", input.issuer?.ciudad, { required: true, singleLine: true, max: 20 });
  validateCurrency(list, input);
  validateReceiver(list, input, invoice);
  validatePayment(list, input);
  validateItems(list, input);
  validateCustoms(list, input, invoice);
  validateExportReferences(list, input);
  return list.issues;
}

function validateCurrency(list: IssueList, input: ExportDocumentInput): void {
  if (typeof input.moneda !== "string" || input.moneda === "") list.add("moneda", "required", "is required");
  else if (!isSiiCurrency(input.moneda)) {
    const name = siiCurrencyFromIso(input.moneda);
    list.add("moneda", "enum", name ? `the SII's name of the currency: "${name}", not "${input.moneda}"` : "one of the SII's currency names (SII_CURRENCIES)");
  }
  checkDecimal(list, "tipo_cambio", input.tipoCambio, { required: true, greaterThan: 0, maxDecimals: 4, maxIntegerDigits: 6 });
}

function validateReceiver(list: IssueList, input: ExportDocumentInput, invoice: boolean): void {
  const r = input.receiver;
  if (typeof r !== "object" || r === null) {
    list.add("receptor", "required", "is required");
    return;
  }
  checkText(list, "receptor.razon_social", r.razonSocial, { required: true, singleLine: true, max: 100 });
  checkText(list, "receptor.giro", r.giro, { singleLine: true, max: 40 });
  checkText(list, "receptor.direccion", r.direccion, { required: invoice, singleLine: true, max: 70 });
  checkText(list, "receptor.ciudad", r.ciudad, { required: invoice, singleLine: true, max: 20 });
  checkText(list, "receptor.email", r.email, { singleLine: true, max: 80 });
  checkText(list, "receptor.extranjero.num_id", r.numId, { singleLine: true, max: 20 });
  code(list, "receptor.extranjero.nacionalidad", r.nacionalidad, COUNTRIES);
}

function validatePayment(list: IssueList, input: ExportDocumentInput): void {
  code(list, "forma_pago_exportacion", input.formaPagoExportacion, EXPORT_PAYMENT_FORMS);
  if (input.fechaCancelacion !== undefined && !isDate(input.fechaCancelacion)) {
    list.add("fecha_cancelacion", "format", "must be a date YYYY-MM-DD");
  }
  if (input.formaPagoExportacion === ADVANCE_PAYMENT && input.fechaCancelacion === undefined) {
    list.add("fecha_cancelacion", "required", "an export paid in advance (32) says when it was paid");
  }
  const s = input.indicadorServicio;
  if (s !== undefined && s !== 3 && s !== 4 && s !== 5) list.add("indicador_servicio", "enum", "must be 3, 4 or 5");
}

function validateItems(list: IssueList, input: ExportDocumentInput): void {
  if (!Array.isArray(input.items) || input.items.length === 0) {
    list.add("items", "min_items", "at least one line");
    return;
  }
  if (input.items.length > 60) list.add("items", "max_items", "at most 60 lines");
  input.items.forEach((item, i) => {
    const p = `items[${i}]`;
    checkText(list, `${p}.nombre`, item.nombre, { required: true, singleLine: true, max: 80 });
    checkText(list, `${p}.descripcion`, item.descripcion, { max: 1000 });
    checkText(list, `${p}.unidad`, item.unidad, { singleLine: true, max: 4 });
    checkDecimal(list, `${p}.cantidad`, item.cantidad, { required: true, greaterThan: 0, maxDecimals: 6, maxIntegerDigits: 12 });
    checkDecimal(list, `${p}.precio`, item.precio, { required: true, min: 0, maxDecimals: 6, maxIntegerDigits: 12 });
    checkDecimal(list, `${p}.descuento_porcentaje`, item.descuentoPorcentaje, { min: 0, max: 100, maxDecimals: 2 });
    checkDecimal(list, `${p}.recargo_porcentaje`, item.recargoPorcentaje, { min: 0, max: 100, maxDecimals: 2 });
  });
}

function validateCustoms(list: IssueList, input: ExportDocumentInput, invoice: boolean): void {
  const a = input.exportacion;
  const service = input.indicadorServicio;
  const goods = invoice && service === undefined;
  if (a === undefined) {
    if (goods) list.add("exportacion", "required", "an export of goods carries its customs data");
    return;
  }
  const p = "exportacion";
  code(list, `${p}.modalidad_venta`, a.modalidadVenta, SALE_MODALITIES, goods);
  code(list, `${p}.clausula_venta`, a.clausulaVenta, SALE_CLAUSES, goods);
  checkDecimal(list, `${p}.total_clausula`, a.totalClausula, { required: goods, min: 0, maxDecimals: 2, maxIntegerDigits: 14 });
  code(list, `${p}.via_transporte`, a.viaTransporte, TRANSPORT_WAYS, invoice && service !== 4);
  checkText(list, `${p}.nombre_transporte`, a.nombreTransporte, { singleLine: true, max: 40 });
  code(list, `${p}.puerto_embarque`, a.puertoEmbarque, PORTS, goods);
  code(list, `${p}.puerto_desembarque`, a.puertoDesembarque, PORTS, goods);
  code(list, `${p}.pais_receptor`, a.paisReceptor, COUNTRIES, invoice);
  code(list, `${p}.pais_destino`, a.paisDestino, COUNTRIES);
  for (const [value, unit, name] of [
    [a.tara, a.unidadTara, "tara"],
    [a.pesoBruto, a.unidadPesoBruto, "peso_bruto"],
    [a.pesoNeto, a.unidadPesoNeto, "peso_neto"],
  ] as const) {
    checkDecimal(list, `${p}.${name}`, value, { min: 0, maxDecimals: 2, maxIntegerDigits: 8 });
    code(list, `${p}.unidad_${name}`, unit, CUSTOMS_UNITS, value !== undefined);
  }
  checkDecimal(list, `${p}.flete`, a.flete, { greaterThan: 0, maxDecimals: 4, maxIntegerDigits: 14 });
  checkDecimal(list, `${p}.seguro`, a.seguro, { greaterThan: 0, maxDecimals: 4, maxIntegerDigits: 14 });
  const bultos = a.bultos ?? [];
  if (goods && bultos.length === 0) list.add(`${p}.bultos`, "min_items", "an export of goods says its packages (TotBultos)");
  if (bultos.length > 10) list.add(`${p}.bultos`, "max_items", "at most 10 kinds of package");
  bultos.forEach((b, i) => {
    const q = `${p}.bultos[${i}]`;
    code(list, `${q}.tipo`, b.tipo, PACKAGE_KINDS, true);
    if (!Number.isInteger(b.cantidad) || b.cantidad < 1) list.add(`${q}.cantidad`, "minimum", "a whole number from 1");
    checkText(list, `${q}.marcas`, b.marcas, { required: true, singleLine: true, max: 255 });
    const container = CONTAINER_PACKAGE_KINDS.includes(b.tipo);
    checkText(list, `${q}.id_container`, b.idContainer, { required: container, singleLine: true, max: 25 });
    checkText(list, `${q}.sello`, b.sello, { required: container, singleLine: true, max: 20 });
    checkText(list, `${q}.emisor_sello`, b.emisorSello, { singleLine: true, max: 70 });
  });
}

function validateExportReferences(list: IssueList, input: ExportDocumentInput): void {
  const refs = input.referencias ?? [];
  const note = input.tipo !== 110;
  refs.forEach((r, i) => {
    const p = `referencias[${i}]`;
    const tipoDoc = String(r.tipoDoc);
    checkText(list, `${p}.folio`, String(r.folio), { required: true, singleLine: true, max: 18 });
    if (typeof r.fecha !== "string" || !isDate(r.fecha)) list.add(`${p}.fecha`, "format", "must be a date YYYY-MM-DD");
    checkText(list, `${p}.razon`, r.razon, { singleLine: true, max: 90 });
    if (CUSTOMS_REFERENCES.test(tipoDoc)) {
      if (r.codigo !== undefined) list.add(`${p}.codigo`, "not_allowed", "customs references (807–813) carry no CodRef");
    } else if (!EXPORT_REFERENCE_TIPOS.includes(tipoDoc)) {
      list.add(`${p}.tipo_doc`, "not_allowed", "an export document references a 110, 111 or 112, or a customs document 807–813");
    } else if (note && r.codigo === undefined) {
      list.add(`${p}.codigo`, "required", "a note must say whether it annuls (1), corrects text (2) or amounts (3)");
    }
  });
  if (note && !refs.some((r) => EXPORT_REFERENCE_TIPOS.includes(String(r.tipoDoc)))) {
    list.add("referencia", "required", "an export note references the 110, 111 or 112 it modifies");
  }
}

function code(list: IssueList, path: string, value: number | undefined, table: CodeTable, required = false): void {
  if (value === undefined || value === null) {
    if (required) list.add(path, "required", "is required");
    return;
  }
  if (!Number.isInteger(value) || !hasCode(table, value)) list.add(path, "enum", "not a code of the Aduana's table");
}

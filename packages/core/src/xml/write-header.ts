/** `IdDoc`, `Emisor` and `Receptor` in `xs:sequence` order, DTE_v10 or EnvioBOLETA_v11 shape (BRIEF §2, §2.1). */
import { defaultPaymentTerm, isDispatchGuide, isReceipt, type DocumentInput } from "../document/types.js";
import { normalizeRut } from "../rut/index.js";
import type { Totals } from "../totals/index.js";
import type { DualWriter } from "./dual-writer.js";

/** `IndServicio` 3: "ventas y servicios", the only kind Timbre issues. */
const BOLETA_SERVICE = 3;

/**
 * `IdDoc`: boletas get `IndServicio` 3 (and `IndMntNeto` 2 on a net-priced 39); facturas `MntBruto`, `FmaPago`;
 * guías de despacho `TipoDespacho` (when given) and `IndTraslado` right after `FchEmis`, and `FmaPago` only when
 * given (optional on 52: no default is assumed).
 *
 * @example
 * writeIdDoc(w, input, totals); // <IdDoc><TipoDTE>33</TipoDTE><Folio>1</Folio><FchEmis>…</FchEmis><FmaPago>1</FmaPago></IdDoc>
 */
export function writeIdDoc(w: DualWriter, input: DocumentInput, totals: Totals): void {
  w.raw("<IdDoc>").value("TipoDTE", input.tipo).value("Folio", input.folio).text("FchEmis", input.fecha);
  if (isDispatchGuide(input.tipo) && input.traslado) {
    // DTE_v10 order: … FchEmis, IndNoRebaja, TipoDespacho, IndTraslado, TpoImpresion, IndServicio, MntBruto, … FmaPago
    if (input.traslado.despacho != null) w.value("TipoDespacho", input.traslado.despacho);
    w.value("IndTraslado", input.traslado.indicador);
  }
  if (isReceipt(input.tipo)) {
    w.value("IndServicio", BOLETA_SERVICE);
    // Boleta line amounts are gross unless IndMntNeto says net; a 41 has no IVA, so net = gross there.
    if (input.tipo === 39 && !totals.preciosBrutos) w.value("IndMntNeto", 2);
  } else {
    if (totals.preciosBrutos) w.value("MntBruto", 1);
    const formaPago = input.formaPago ?? defaultPaymentTerm(input.tipo);
    if (formaPago !== undefined) w.value("FmaPago", formaPago);
  }
  w.raw("</IdDoc>");
}

/**
 * `Emisor`: `RznSoc`/`GiroEmis`/`Acteco` on facturas, `RznSocEmisor`/`GiroEmisor` on boletas.
 *
 * @example
 * writeEmisor(w, input); // <Emisor><RUTEmisor>76192083-9</RUTEmisor><RznSoc>…</Emisor>
 */
export function writeEmisor(w: DualWriter, input: DocumentInput): void {
  const e = input.issuer;
  w.raw("<Emisor>").value("RUTEmisor", normalizeRut(e.rut));
  if (isReceipt(input.tipo)) {
    w.optText("RznSocEmisor", e.razonSocial).optText("GiroEmisor", e.giro);
  } else {
    w.text("RznSoc", e.razonSocial).text("GiroEmis", e.giro).optText("Telefono", e.telefono).optText("CorreoEmisor", e.email);
    for (const code of e.acteco) w.value("Acteco", code);
  }
  if (e.sucursalSii !== undefined) w.value("CdgSIISucur", e.sucursalSii);
  w.optText("DirOrigen", e.direccion).optText("CmnaOrigen", e.comuna).optText("CiudadOrigen", e.ciudad);
  w.raw("</Emisor>");
}

/**
 * `Receptor`: no `GiroRecep`/`CorreoRecep` on boletas; empty optionals omitted.
 *
 * @example
 * writeReceptor(w, input); // <Receptor><RUTRecep>60803000-K</RUTRecep><RznSocRecep>…</Receptor>
 */
export function writeReceptor(w: DualWriter, input: DocumentInput): void {
  const r = input.receiver;
  w.raw("<Receptor>").value("RUTRecep", normalizeRut(r.rut));
  if (isReceipt(input.tipo)) {
    w.optText("RznSocRecep", r.razonSocial).optText("Contacto", r.contacto);
  } else {
    w.text("RznSocRecep", r.razonSocial).optText("GiroRecep", r.giro).optText("Contacto", r.contacto).optText("CorreoRecep", r.email);
  }
  w.optText("DirRecep", r.direccion).optText("CmnaRecep", r.comuna).optText("CiudadRecep", r.ciudad);
  w.raw("</Receptor>");
}

/**
 * `Transporte` of a guía de despacho, after `Receptor` and before `Totales`: `Patente`, `RUTTrans`, `Chofer`
 * (`RUTChofer`, `NombreChofer`), `DirDest`, `CmnaDest`, `CiudadDest`, in that order; left out when empty.
 *
 * @example
 * writeTransporte(w, input); // <Transporte><Patente>BBCL45</Patente><RUTTrans>…</RUTTrans>…</Transporte>
 */
export function writeTransporte(w: DualWriter, input: DocumentInput): void {
  const t = input.transporte;
  if (!isDispatchGuide(input.tipo) || !t) return;
  const present = (v: string | null | undefined): v is string => v !== undefined && v !== null && v !== "";
  const any = [t.patente, t.rutTransportista, t.direccionDestino, t.comunaDestino, t.ciudadDestino].some(present) || t.chofer != null;
  if (!any) return;
  w.raw("<Transporte>").optText("Patente", t.patente);
  if (present(t.rutTransportista)) w.value("RUTTrans", normalizeRut(t.rutTransportista));
  if (t.chofer) w.raw("<Chofer>").value("RUTChofer", normalizeRut(t.chofer.rut)).text("NombreChofer", t.chofer.nombre).raw("</Chofer>");
  w.optText("DirDest", t.direccionDestino).optText("CmnaDest", t.comunaDestino).optText("CiudadDest", t.ciudadDestino);
  w.raw("</Transporte>");
}

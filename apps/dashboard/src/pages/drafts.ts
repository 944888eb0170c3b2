/**
 * Where the emission form starts from an issued document: a note that corrects it, a new one like it, or the factura
 * that bills a guía de despacho.
 */
import type { DteDetail, Receptor } from "@timbre/sdk";
import type { Draft } from "./document-form.js";

/** An issued document's receptor as form fields: a name the server did not keep (`null`) is left for the user to fill. */
export function editableReceptor(receptor: DteDetail["receptor"]): Partial<Receptor> {
  return { ...receptor, razon_social: receptor.razon_social ?? undefined };
}

function content(d: DteDetail): Draft {
  return {
    receptor: editableReceptor(d.receptor),
    precios_brutos: d.precios_brutos,
    descuento_global_porcentaje: d.descuento_global_porcentaje,
    // every line of an exempt document (34, 41) is exempt, and so are those of a note correcting it
    items: d.items.map((i) => ({ nombre: i.nombre, descripcion: i.descripcion, cantidad: i.cantidad, unidad: i.unidad, precio: i.precio, descuento_porcentaje: i.descuento_porcentaje, exento: i.exento || d.tipo === 34 || d.tipo === 41, impuesto_adicional: i.impuesto_adicional })),
  };
}

/** A credit (61) or debit (56) note on `d`: its receptor, lines and options, and the reference; the reason is the user's. */
export function noteDraft(d: DteDetail, tipo: 56 | 61): Draft {
  return { ...content(d), tipo, referencia: { tipo_doc: d.tipo, folio: d.folio, fecha: d.fecha } };
}

/**
 * A new document like `d` (next month's invoice, the same delivery again): same tipo, receptor, lines and options, a
 * guía's traslado and transport; no reference, today's date.
 */
export function copyDraft(d: DteDetail): Draft {
  return { ...content(d), tipo: d.tipo, forma_pago: d.forma_pago, observaciones: d.observaciones, traslado: d.traslado, transporte: d.transporte };
}

/** Guías whose goods were sold (IndTraslado 1 venta, 2 ventas por efectuar): a factura follows them. */
export const INVOICED_TRANSFERS: readonly number[] = [1, 2];

/**
 * The factura (33) that bills guía `d`: its receptor and lines, and a reference to the guía (TpoDocRef 52), as the
 * SII asks of a factura issued after its guías; no traslado (a factura carries none).
 */
export function invoiceDraft(d: DteDetail): Draft {
  return { ...content(d), tipo: 33, referencia: { tipo_doc: 52, folio: d.folio, fecha: d.fecha, razon: `Factura de guía de despacho N° ${d.folio}` } };
}

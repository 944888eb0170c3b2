/** API emission request (Spanish snake_case) → core's `DocumentInput`; the issuer comes from the business. */
import type { DispatchKind, DocumentInput, Issuer, Line, Reference, Tipo, TransferKind, Transport } from "@timbre/core";
import type { BusinessRow } from "../../db/businesses.js";
import type { EmitRequest, ReferenciaRequest } from "./schemas.js";

/** The issuer as printed and signed: the business record at emission time. */
export function issuerOf(business: BusinessRow): Issuer {
  const issuer: Issuer = {
    rut: business.rut,
    razonSocial: business.razonSocial,
    giro: business.giro,
    acteco: business.acteco,
    direccion: business.direccion,
    comuna: business.comuna,
  };
  if (business.ciudad) issuer.ciudad = business.ciudad;
  if (business.telefono) issuer.telefono = business.telefono;
  if (business.email) issuer.email = business.email;
  if (business.sucursalSii && /^\d{1,9}$/.test(business.sucursalSii)) issuer.sucursalSii = Number(business.sucursalSii);
  if (business.unidadSii) issuer.unidadSii = business.unidadSii;
  return issuer;
}

/** `referencia` and `referencias[]` as one list (the singular first). */
export function referencesOf(request: Pick<EmitRequest, "referencia" | "referencias">): ReferenciaRequest[] {
  return [...(request.referencia ? [request.referencia] : []), ...(request.referencias ?? [])];
}

/** Core path `referencias[i]` → the API path the caller used (`referencia` or `referencias[j]`). */
export function apiReferencePath(path: string, request: Pick<EmitRequest, "referencia">): string {
  if (!request.referencia) return path;
  return path.replace(/^referencias\[(\d+)\]/, (_, i: string) => (i === "0" ? "referencia" : `referencias[${Number(i) - 1}]`));
}

export function toReference(r: ReferenciaRequest): Reference {
  const ref: Reference = { tipoDoc: r.tipo_doc, folio: r.folio, fecha: r.fecha };
  if (r.razon !== undefined) ref.razon = r.razon;
  if (r.codigo !== undefined) ref.codigo = r.codigo;
  return ref;
}

function toLine(item: EmitRequest["items"][number]): Line {
  const line: Line = { nombre: item.nombre, cantidad: item.cantidad, precio: item.precio };
  if (item.descripcion !== undefined) line.descripcion = item.descripcion;
  if (item.unidad !== undefined) line.unidad = item.unidad;
  if (item.descuento_porcentaje !== undefined) line.descuentoPorcentaje = item.descuento_porcentaje;
  if (item.codigo !== undefined) line.codigo = item.codigo;
  if (item.exento !== undefined) line.exento = item.exento;
  if (item.impuesto_adicional !== undefined) line.impuestoAdicional = item.impuesto_adicional;
  return line;
}

/** Maps a request whose `fecha` is already resolved; `folio` is the allocated one (or a placeholder). */
export function toDocumentInput(request: EmitRequest & { fecha: string }, issuer: Issuer, folio: number): DocumentInput {
  const r = request.receptor;
  const receiver: DocumentInput["receiver"] = { rut: r.rut, razonSocial: r.razon_social };
  for (const [from, to] of [["giro", "giro"], ["direccion", "direccion"], ["comuna", "comuna"], ["ciudad", "ciudad"], ["email", "email"], ["contacto", "contacto"]] as const) {
    const value = r[from];
    if (value !== undefined) receiver[to] = value;
  }
  const input: DocumentInput = {
    tipo: request.tipo as Tipo,
    folio,
    fecha: request.fecha,
    issuer,
    receiver,
    items: Array.isArray(request.items) ? request.items.map(toLine) : [],
  };
  const refs = referencesOf(request);
  if (refs.length > 0) input.referencias = refs.map(toReference);
  if (request.precios_brutos !== undefined) input.preciosBrutos = request.precios_brutos;
  if (request.forma_pago !== undefined) input.formaPago = request.forma_pago;
  if (request.descuento_global_porcentaje !== undefined) input.descuentoGlobalPorcentaje = request.descuento_global_porcentaje;
  if (request.observaciones !== undefined) input.observaciones = request.observaciones;
  if (request.traslado !== undefined) {
    input.traslado = { indicador: request.traslado.tipo as TransferKind };
    if (request.traslado.despacho !== undefined) input.traslado.despacho = request.traslado.despacho as DispatchKind;
  }
  if (request.transporte !== undefined) input.transporte = toTransport(request.transporte);
  return input;
}

function toTransport(t: NonNullable<EmitRequest["transporte"]>): Transport {
  const transport: Transport = {};
  if (t.patente !== undefined) transport.patente = t.patente;
  if (t.rut_transportista !== undefined) transport.rutTransportista = t.rut_transportista;
  if (t.chofer !== undefined) transport.chofer = { rut: t.chofer.rut, nombre: t.chofer.nombre };
  if (t.direccion_destino !== undefined) transport.direccionDestino = t.direccion_destino;
  if (t.comuna_destino !== undefined) transport.comunaDestino = t.comuna_destino;
  if (t.ciudad_destino !== undefined) transport.ciudadDestino = t.ciudad_destino;
  return transport;
}

/** A core issue path as the API names it: the guía's `traslado.indicador` is the API's `traslado.tipo`. */
export function apiTransportPath(path: string): string {
  return path === "traslado.indicador" ? "traslado.tipo" : path;
}

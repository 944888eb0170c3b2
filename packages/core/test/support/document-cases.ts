/** Rich documents for every tipo: references, line and global discounts, exempt lines, accents, decimal quantities. */
import type { DocumentInput } from "../../src/document/types.js";
import { ISSUER } from "./signing-fixtures.js";

const BUSINESS_RECEIVER: DocumentInput["receiver"] = {
  rut: "96670340-7",
  razonSocial: "Comercial Ñuñoa & Hijos Ltda. — año 2º".replace("—", "-"),
  giro: "Venta de artículos de ferretería",
  direccion: "Av. José Pedro Alessandri Nº 1234",
  comuna: "Ñuñoa",
  ciudad: "Santiago",
  email: "compras@ñuñoa.cl",
  contacto: "Sra. Pía O'Higgins",
};

const base = { fecha: "2026-01-15", issuer: { ...ISSUER, telefono: "+56 2 2345 6789", email: "facturas@sasco.cl", ciudad: "Santiago" } };

export const CASES: Record<string, DocumentInput> = {
  "33 factura": {
    ...base,
    tipo: 33,
    folio: 7,
    formaPago: 2,
    receiver: BUSINESS_RECEIVER,
    descuentoGlobalPorcentaje: 5,
    items: [
      { nombre: 'Cañería PVC 3/4" "Tigre"', codigo: "CAN-34", cantidad: "2.5", unidad: "MT", precio: 1990.5, descuentoPorcentaje: 10 },
      { nombre: "Instalación <urgente> & garantía", descripcion: "Incluye mano de obra\tcertificada\r\nNº de visita: 2º", cantidad: 1, precio: 45000 },
      { nombre: "Libro técnico (exento)", cantidad: 3, precio: 12990, exento: true, unidad: "UN" },
      { nombre: "Regalo promocional", cantidad: 1, precio: 0 },
    ],
    referencias: [{ tipoDoc: 801, folio: "OC-4471", fecha: "2026-01-10", razon: "Orden de compra Nº 4471" }],
  },
  "33 precios brutos": {
    ...base,
    tipo: 33,
    folio: 8,
    preciosBrutos: true,
    receiver: BUSINESS_RECEIVER,
    items: [{ nombre: "Servicio mensual", cantidad: 1, precio: 119000, descuentoPorcentaje: "12.5" }],
  },
  "33 impuestos adicionales": {
    ...base,
    tipo: 33,
    folio: 9,
    formaPago: 1,
    receiver: BUSINESS_RECEIVER,
    items: [
      { nombre: "Bebida cola 3 L", cantidad: 24, precio: 1890, impuestoAdicional: 271 },
      { nombre: "Agua mineral 1,5 L", cantidad: 12, precio: 690, impuestoAdicional: 27, descuentoPorcentaje: 5 },
      { nombre: "Vino tinto reserva", cantidad: 6, precio: 4990, impuestoAdicional: 25 },
      { nombre: "Cerveza lager 6-pack", cantidad: 4, precio: 5490, impuestoAdicional: 26 },
      { nombre: "Pisco 35°", cantidad: 2, precio: 7990, impuestoAdicional: 24 },
      { nombre: "Vaso plástico", cantidad: 100, precio: 25 },
      { nombre: "Bebida cola 1,5 L", cantidad: 6, precio: 1190, impuestoAdicional: 271 },
    ],
  },
  "34 factura exenta": {
    ...base,
    tipo: 34,
    folio: 3,
    formaPago: 1,
    receiver: BUSINESS_RECEIVER,
    descuentoGlobalPorcentaje: "10",
    items: [
      { nombre: "Asesoría educacional", cantidad: "1.5", unidad: "HR", precio: 40000 },
      { nombre: "Matrícula año 2026", cantidad: 1, precio: 150000, descuentoPorcentaje: 20 },
    ],
    referencias: [{ tipoDoc: "SET", folio: 1, fecha: "2026-01-15", razon: "CASO 4471-1" }],
  },
  "39 boleta bruta": {
    ...base,
    tipo: 39,
    folio: 11,
    preciosBrutos: true,
    descuentoGlobalPorcentaje: 10,
    receiver: { rut: "66666666-6", razonSocial: "" },
    items: [
      { nombre: "Café ñandú & pan amasado", cantidad: 2, precio: 1990, descuentoPorcentaje: 5 },
      { nombre: "Queso (kg)", cantidad: "0.375", unidad: "KG", precio: 8990 },
      { nombre: "Diario (exento)", cantidad: 1, precio: 800, exento: true },
    ],
    referencias: [{ tipoDoc: "SET", folio: "1", fecha: "2026-01-15", razon: "CASO-1" }],
  },
  "39 boleta neta": {
    ...base,
    tipo: 39,
    folio: 12,
    receiver: { rut: "12345678-5", razonSocial: "Juan Pérez Núñez", direccion: "Los Álamos 12", comuna: "Maipú" },
    items: [{ nombre: "Corte de pelo", cantidad: 1, precio: 8403 }],
  },
  "41 boleta exenta": {
    ...base,
    tipo: 41,
    folio: 5,
    descuentoGlobalPorcentaje: 10,
    receiver: { rut: "66666666-6", razonSocial: "" },
    items: [
      { nombre: "Entrada museo (niño)", cantidad: 3, precio: 1000 },
      { nombre: "Visita guiada", cantidad: 1, precio: 2500, descuentoPorcentaje: "33.33" },
    ],
  },
  "52 guía venta": {
    ...base,
    tipo: 52,
    folio: 21,
    receiver: BUSINESS_RECEIVER,
    traslado: { indicador: 1, despacho: 2 },
    transporte: {
      patente: "BBCL-45",
      rutTransportista: "77777777-7",
      chofer: { rut: "12.345.678-5", nombre: "José Ñancupil Araya" },
      direccionDestino: "Camino a Melipilla 12.345, bodega 3",
      comunaDestino: "Maipú",
      ciudadDestino: "Santiago",
    },
    items: [
      { nombre: 'Cañería PVC 3/4" "Tigre"', codigo: "CAN-34", cantidad: 40, unidad: "MT", precio: 1990.5, descuentoPorcentaje: 10 },
      { nombre: "Llave de paso bronce ½\"", cantidad: 12, unidad: "UN", precio: "4590" },
      { nombre: "Manual de instalación (exento)", cantidad: 2, precio: 8500, exento: true },
    ],
    referencias: [{ tipoDoc: 801, folio: "OC-4471", fecha: "2026-01-10", razon: "Orden de compra Nº 4471" }],
  },
  "52 traslado interno": {
    ...base,
    tipo: 52,
    folio: 22,
    receiver: { rut: base.issuer.rut, razonSocial: base.issuer.razonSocial, giro: "Tecnología", direccion: "Av. Apoquindo 4500, bodega 2", comuna: "Las Condes", ciudad: "Santiago" },
    traslado: { indicador: 5 },
    items: [
      { nombre: "Notebook 14\" (activo fijo)", cantidad: 3, unidad: "UN", precio: 0 },
      { nombre: "Monitor 27\"", cantidad: 5, unidad: "UN", precio: 0 },
    ],
  },
  "56 nota de débito": {
    ...base,
    tipo: 56,
    folio: 2,
    receiver: BUSINESS_RECEIVER,
    items: [{ nombre: "Intereses por mora", cantidad: 1, precio: 4500 }],
    referencias: [{ tipoDoc: 33, folio: 7, fecha: "2026-01-15", codigo: 3, razon: "Cobro de intereses" }],
  },
  "61 nota de crédito anula": {
    ...base,
    tipo: 61,
    folio: 4,
    receiver: BUSINESS_RECEIVER,
    descuentoGlobalPorcentaje: 5,
    items: [
      { nombre: 'Cañería PVC 3/4" "Tigre"', cantidad: "2.5", unidad: "MT", precio: 1990.5, descuentoPorcentaje: 10 },
      { nombre: "Libro técnico (exento)", cantidad: 3, precio: 12990, exento: true },
    ],
    referencias: [
      { tipoDoc: "SET", folio: 1, fecha: "2026-01-15", razon: "CASO 4471-3" },
      { tipoDoc: 33, folio: 7, fecha: "2026-01-15", codigo: 1, razon: "Anula factura" },
    ],
  },
  "61 nota de crédito anula guía": {
    ...base,
    tipo: 61,
    folio: 6,
    receiver: BUSINESS_RECEIVER,
    items: [
      { nombre: 'Cañería PVC 3/4" "Tigre"', cantidad: 40, unidad: "MT", precio: 1990.5, descuentoPorcentaje: 10 },
      { nombre: "Llave de paso bronce ½\"", cantidad: 12, unidad: "UN", precio: "4590" },
      { nombre: "Manual de instalación (exento)", cantidad: 2, precio: 8500, exento: true },
    ],
    referencias: [{ tipoDoc: 52, folio: 21, fecha: "2026-01-15", codigo: 1, razon: "Anula guía de despacho" }],
  },
  "61 nota de crédito corrige texto": {
    ...base,
    tipo: 61,
    folio: 5,
    receiver: BUSINESS_RECEIVER,
    items: [{ nombre: "Donde dice «Ñuñoa» debe decir «Providencia»", cantidad: 1, precio: 0 }],
    referencias: [{ tipoDoc: 33, folio: 7, fecha: "2026-01-15", codigo: 2, razon: "Corrige dirección" }],
  },
};

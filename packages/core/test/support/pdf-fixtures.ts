/**
 * Printable documents of every tipo for the PDF tests, bench and sample images, stamped and signed for real with
 * `buildSignedDte` (CAFs and certificate from signing-fixtures). Texts carry accents and "Ñ" so the TED does too.
 */
import type { DocumentInput, Issuer, Line, Tipo } from "../../src/document/types.js";
import type { PrintableDocument } from "../../src/pdf/types.js";
import { computeTotals } from "../../src/totals/index.js";
import { buildSignedDte } from "../../src/xml/build-signed-dte.js";
import { cafFor, sampleIdentity, SAMPLE_TIMESTAMP } from "./signing-fixtures.js";

export const PDF_ISSUER: Issuer = {
  rut: "76192083-9",
  razonSocial: "SASCO SpA",
  giro: "Desarrollo de software, asesorías informáticas y venta de equipos",
  acteco: [726000],
  direccion: "Av. Providencia 1234, oficina 601",
  comuna: "Providencia",
  ciudad: "Santiago",
  telefono: "+56 2 2345 6789",
  email: "facturacion@sasco.cl",
  unidadSii: "SANTIAGO ORIENTE",
};

const RECEIVER: DocumentInput["receiver"] = {
  rut: "77123456-9",
  razonSocial: "Comercializadora Ñuñoa Limitada",
  giro: "Venta al por mayor de ferretería",
  direccion: "Irarrázaval 2450",
  comuna: "Ñuñoa",
  ciudad: "Santiago",
  contacto: "María José Peña",
  email: "compras@nunoa.cl",
};

const ANONYMOUS: DocumentInput["receiver"] = { rut: "66666666-6", razonSocial: "" };

const ITEM_NAMES = ["Teclado mecánico español", "Mouse inalámbrico", "Monitor 27\" QHD", "Cable HDMI 2 m",
  "Soporte de notebook", "Hub USB-C 7 puertos", "Audífonos con micrófono", "Cámara web 1080p", "Disco SSD 1 TB",
  "Licencia antivirus anual"];

/** The transport of the guías (52) `makeInput` makes: every field. */
export const GUIA_TRANSPORT: NonNullable<DocumentInput["transporte"]> = {
  patente: "BBCL45",
  rutTransportista: "77777777-7",
  chofer: { rut: "12345678-5", nombre: "José Ñancupil Araya" },
  direccionDestino: "Camino a Melipilla 12345, bodega 3",
  comunaDestino: "Maipú",
  ciudadDestino: "Santiago",
};

/** `count` lines with distinct names `<name> #nn`; the first has a description and a discount. */
export function makeLines(count: number, exento = false): Line[] {
  return Array.from({ length: count }, (_, i) => ({
    nombre: `${ITEM_NAMES[i % ITEM_NAMES.length] ?? "Artículo"} #${String(i + 1).padStart(2, "0")}`,
    cantidad: i % 4 === 0 ? 2 : i % 4 === 1 ? "1.5" : 1,
    unidad: i % 4 === 1 ? "KG" : "UN",
    precio: 4990 + i * 1375,
    ...(i === 0 ? { descripcion: "Incluye garantía extendida de 24 meses y despacho a domicilio en la Región Metropolitana", descuentoPorcentaje: 10 } : {}),
    ...(exento ? { exento: true } : {}),
  }));
}

/** A valid input of `tipo` with `lines` lines. */
export function makeInput(tipo: Tipo, lines = 3, folio = 87): DocumentInput {
  const receipt = tipo === 39 || tipo === 41;
  const base: DocumentInput = {
    tipo,
    folio,
    fecha: "2026-11-20",
    issuer: PDF_ISSUER,
    receiver: receipt ? ANONYMOUS : RECEIVER,
    items: makeLines(lines),
    ...(receipt || tipo === 52 ? {} : { formaPago: 2 as const }),
    ...(tipo === 39 ? { preciosBrutos: true } : {}),
  };
  if (tipo === 33) {
    base.observaciones = "Entregar en bodega 3. Horario de recepción: lunes a viernes de 9:00 a 17:00 hrs.";
    base.referencias = [{ tipoDoc: 801, folio: "OC-4521", fecha: "2026-11-15", razon: "Orden de compra N° 4521" }];
  }
  if (tipo === 52) {
    base.traslado = { indicador: 1, despacho: 2 };
    base.transporte = GUIA_TRANSPORT;
    base.referencias = [{ tipoDoc: 801, folio: "OC-4521", fecha: "2026-11-15", razon: "Orden de compra N° 4521" }];
  }
  if (tipo === 56) base.referencias = [{ tipoDoc: 33, folio: 1200, fecha: "2026-11-02", codigo: 3, razon: "Intereses por mora" }];
  if (tipo === 61) base.referencias = [{ tipoDoc: 33, folio: 1201, fecha: "2026-11-03", codigo: 1, razon: "Anula factura por devolución" }];
  return base;
}

/** Stamps and signs `input` for real; returns the printable document and the signed XML. */
export function makePrintable(input: DocumentInput): PrintableDocument & { xml: string } {
  const totals = computeTotals(input);
  const signed = buildSignedDte({ input, totals, caf: cafFor(input.tipo), identity: sampleIdentity(), timestamp: SAMPLE_TIMESTAMP });
  return { input, totals, ted: signed.ted, resolution: { numero: 0, fecha: "2026-01-15" }, xml: signed.xml };
}

/**
 * fast-check generator of valid documents with tricky text (& < > quotes, Latin-1 letters, entity look-alikes);
 * free texts (item descriptions) also get tabs and CR/LF, which single-line fields refuse.
 */
import fc from "fast-check";
import type { DispatchKind, DocumentInput, Line, Reference, Tipo, TransferKind, Transport } from "../../src/document/types.js";
import { ISSUER } from "./signing-fixtures.js";

const CHARS = [..."abcXYZ019 &<>\"'\t\r\n;#=/ñÑáéíóúÁüºª°«»¿¡©®±µ·ÿ", "&amp;", "]]>", "&#xD;"];

const LINE_CHARS = CHARS.filter((c) => !/[\t\r\n]/.test(c));

/** Tricky one-line text (names, addresses, codes). */
export const trickyText = (maxLength: number) => textOf(LINE_CHARS, maxLength);
/** Tricky free text with tabs and line breaks (descriptions). */
export const trickyFreeText = (maxLength: number) => textOf(CHARS, maxLength);

const textOf = (chars: string[], maxLength: number) =>
  fc
    .array(fc.constantFrom(...chars), { minLength: 1, maxLength })
    .map((parts) => parts.join("").slice(0, maxLength))
    .filter((s) => s.trim() !== "");

const decimal = (maxUnits: number, maxScale: number, minUnits = 0) =>
  fc.tuple(fc.integer({ min: minUnits, max: maxUnits }), fc.integer({ min: 0, max: maxScale })).map(([units, scale]) => {
    const digits = String(units).padStart(scale + 1, "0");
    return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  });

const line: fc.Arbitrary<Line> = fc.record(
  {
    nombre: trickyText(80),
    descripcion: trickyFreeText(200),
    // ≤ 500 000 × 2 000 000 000 per line: six lines with their IVA stay below MAX_AMOUNT (2^53 − 1), as valid documents must.
    cantidad: decimal(500_000, 6, 1),
    precio: decimal(2_000_000_000, 6),
    unidad: trickyText(4),
    descuentoPorcentaje: decimal(10_000, 2).map((s) => (Number(s) > 100 ? "100" : s)),
    codigo: trickyText(35),
    exento: fc.boolean(),
  },
  { requiredKeys: ["nombre", "cantidad", "precio"] },
);

// A note's reference (with its CodRef) names the tax document it modifies; other references may name anything.
const reference = (codigo: boolean): fc.Arbitrary<Reference> =>
  fc.record({
    tipoDoc: codigo ? fc.constantFrom<number | string>(33, 34) : fc.constantFrom<number | string>(33, 34, 801, "SET"),
    folio: fc.integer({ min: 1, max: 999_999 }),
    fecha: fc.constant("2026-01-10"),
    razon: trickyText(90),
    ...(codigo ? { codigo: fc.constantFrom<1 | 3>(1, 3) } : {}),
  });

// A guía's transport: any subset of its fields, a destination address always with its comuna.
const transport: fc.Arbitrary<Transport> = fc
  .record(
    {
      patente: trickyText(8),
      rutTransportista: fc.constantFrom("77777777-7", "76.354.771-k", "60803000-K"),
      chofer: fc.record({ rut: fc.constantFrom("12345678-5", "11.111.111-1"), nombre: trickyText(30) }),
      direccionDestino: trickyText(70),
      comunaDestino: trickyText(20),
      ciudadDestino: trickyText(20),
    },
    { requiredKeys: [] },
  )
  .map((t) => (t.direccionDestino !== undefined && t.comunaDestino === undefined ? { ...t, comunaDestino: "Maipú" } : t));

export const arbitraryDocument: fc.Arbitrary<DocumentInput> = fc
  .record({
    tipo: fc.constantFrom<Tipo>(33, 34, 39, 41, 52, 56, 61),
    folio: fc.integer({ min: 1, max: 100 }),
    items: fc.array(line, { minLength: 1, maxLength: 6 }),
    preciosBrutos: fc.boolean(),
    descuentoGlobalPorcentaje: fc.option(decimal(10_000, 2).map((s) => (Number(s) > 100 ? "100" : s)), { nil: undefined }),
    formaPago: fc.option(fc.constantFrom<1 | 2 | 3>(1, 2, 3), { nil: undefined }),
    razonSocial: trickyText(100),
    giro: trickyText(40),
    direccion: trickyText(70),
    comuna: trickyText(20),
    contacto: fc.option(trickyText(80), { nil: undefined }),
    references: fc.array(reference(false), { maxLength: 2 }),
    noteReference: reference(true),
    traslado: fc.record(
      { indicador: fc.integer({ min: 1, max: 7 }).map((n) => n as TransferKind), despacho: fc.constantFrom<DispatchKind>(1, 2, 3) },
      { requiredKeys: ["indicador"] },
    ),
    transporte: fc.option(transport, { nil: undefined }),
  })
  .map((r): DocumentInput => {
    const items = r.tipo === 33 ? r.items.map((l, i) => (i === 0 ? { ...l, exento: false } : l)) : r.items;
    const isNote = r.tipo === 56 || r.tipo === 61;
    const guia = r.tipo === 52;
    // a traslado interno (5) goes from the issuer to itself
    const rut = guia && r.traslado.indicador === 5 ? ISSUER.rut : "96670340-7";
    return {
      tipo: r.tipo,
      folio: r.folio,
      fecha: "2026-01-15",
      issuer: ISSUER,
      receiver: { rut, razonSocial: r.razonSocial, giro: r.giro, direccion: r.direccion, comuna: r.comuna, contacto: r.contacto },
      items,
      preciosBrutos: r.preciosBrutos && !guia, // a guía's prices are net
      descuentoGlobalPorcentaje: r.descuentoGlobalPorcentaje,
      formaPago: r.formaPago,
      // a debit note annuls only a credit note
      referencias: isNote ? [r.tipo === 56 && r.noteReference.codigo === 1 ? { ...r.noteReference, tipoDoc: 61 } : r.noteReference] : r.references,
      ...(guia ? { traslado: r.traslado, ...(r.transporte ? { transporte: r.transporte } : {}) } : {}),
    };
  });

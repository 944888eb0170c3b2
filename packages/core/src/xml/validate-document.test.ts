import { describe, expect, test } from "bun:test";
import type { DocumentInput } from "../document/types.js";
import { CASES } from "../../test/support/document-cases.js";
import { SAMPLE_T33, SAMPLE_T39 } from "../../test/support/signing-fixtures.js";
import { validateDocument } from "./validate-document.js";

const reasons = (input: DocumentInput) => validateDocument(input).map((i) => `${i.path}:${i.reason}`);
const t33 = (patch: Partial<DocumentInput>): DocumentInput => ({ ...SAMPLE_T33, ...patch });
const GUIA = CASES["52 guía venta"] as DocumentInput;
const BUSINESS = (CASES["33 factura"] as DocumentInput).receiver;
const t52 = (patch: Partial<DocumentInput>): DocumentInput => ({ ...GUIA, ...patch });
const transport = (patch: Record<string, unknown>): DocumentInput => t52({ transporte: { ...GUIA.transporte, ...patch } as DocumentInput["transporte"] });

describe("validateDocument", () => {
  test.each(Object.keys(CASES))("accepts %s", (name) => {
    expect(validateDocument(CASES[name] as DocumentInput)).toEqual([]);
  });

  test("accepts the synthetic samples", () => {
    expect(validateDocument(SAMPLE_T33)).toEqual([]);
    expect(validateDocument(SAMPLE_T39)).toEqual([]);
  });

  test("amounts beyond 2^53 − 1 pesos are refused (`maximum`), alongside the other problems; up to it they pass", () => {
    const line = (cantidad: number, precio: number) => ({ nombre: "x", cantidad, precio });
    expect(reasons(t33({ fecha: "2026-02-30", items: [line(999_999_999_999, 999_999_999_999), line(1, 1)] }))).toEqual(["fecha:format", "items[0]:maximum"]);
    // each line fits, the net total does not
    expect(reasons(t33({ items: [line(999_999_999_999, 5000), line(999_999_999_999, 5000)] }))).toEqual(["items:maximum"]);
    // the net fits, the net plus its 19 % IVA does not: 7 569 × 999 999 999 999 with IVA is just below 2^53 − 1
    expect(reasons(t33({ items: [line(999_999_999_999, 7570)] }))).toEqual(["items:maximum"]);
    expect(validateDocument(t33({ items: [line(999_999_999_999, 7569)] }))).toEqual([]);
    // invalid lines are reported as such, not as amounts
    expect(reasons(t33({ items: [line(1e13, 1e13)] }))).toEqual(["items[0].cantidad:maximum", "items[0].precio:maximum"]);
  });

  test("reports every problem at once with API paths", () => {
    const input = t33({
      fecha: "2026-02-30",
      receiver: { rut: "76192083-8", razonSocial: "Café ☕", giro: "x".repeat(41) },
      items: [{ nombre: "", cantidad: 0, precio: -1, unidad: "CAJAS", descuentoPorcentaje: 101 }],
    });
    expect(reasons(input)).toEqual([
      "fecha:format",
      "receptor.rut:invalid_rut",
      "receptor.razon_social:charset",
      "receptor.giro:max_length",
      "receptor.direccion:required",
      "receptor.comuna:required",
      "items[0].nombre:required",
      "items[0].unidad:max_length",
      "items[0].cantidad:minimum",
      "items[0].precio:minimum",
      "items[0].descuento_porcentaje:maximum",
    ]);
  });

  test("charset names the field and the character; line breaks only in free texts", () => {
    const [issue] = validateDocument(t33({ items: [{ nombre: "Té “verde”", cantidad: 1, precio: 1 }] }));
    expect(issue).toMatchObject({ path: "items[0].nombre", reason: "charset" });
    expect(issue?.message).toContain("U+201C");
    expect(validateDocument(t33({ items: [{ nombre: "a b", descripcion: "x\r\n\ty", cantidad: 1, precio: 1 }] }))).toEqual([]);
    // a CR in a name could not survive the timbre (parsers turn it into LF): names are one line
    expect(reasons(t33({ items: [{ nombre: "a\tb", cantidad: 1, precio: 1 }] }))).toEqual(["items[0].nombre:format"]);
    expect(reasons(t33({ receiver: { ...SAMPLE_T33.receiver, razonSocial: "A\r\nB" } }))).toEqual(["receptor.razon_social:format"]);
    expect(reasons(t33({ items: [{ nombre: "bell\u0007", cantidad: 1, precio: 1 }] }))).toEqual(["items[0].nombre:charset"]);
    expect(reasons(t33({ items: [{ nombre: "c1\u0085", cantidad: 1, precio: 1 }] }))).toEqual(["items[0].nombre:charset"]);
  });

  test("lengths: NmbItem 80, UnmdItem 4, GiroRecep 40, RznSocRecep 100 (never silently truncated)", () => {
    const input = t33({
      receiver: { ...SAMPLE_T33.receiver, razonSocial: "r".repeat(101), giro: "g".repeat(41) },
      items: [{ nombre: "n".repeat(81), unidad: "UNIDA", cantidad: 1, precio: 1 }],
    });
    expect(reasons(input)).toEqual(["receptor.razon_social:max_length", "receptor.giro:max_length", "items[0].nombre:max_length", "items[0].unidad:max_length"]);
    expect(validateDocument(t33({ items: [{ nombre: "n".repeat(80), unidad: "UNID", cantidad: 1, precio: 1 }] }))).toEqual([]);
  });

  test("line counts: 1–60 on facturas, 1–1000 on boletas", () => {
    const line = { nombre: "x", cantidad: 1, precio: 1 };
    expect(reasons(t33({ items: [] }))).toEqual(["items:min_items"]);
    expect(reasons(t33({ items: Array(61).fill(line) }))).toEqual(["items:max_items"]);
    expect(reasons({ ...SAMPLE_T39, items: Array(1000).fill(line) })).toEqual([]);
    expect(reasons({ ...SAMPLE_T39, items: Array(1001).fill(line) })).toEqual(["items:max_items"]);
  });

  test("numbers: quantity > 0, price ≥ 0, at most 6 decimals, discount 0–100 with 2 decimals", () => {
    const line = (patch: object) => t33({ items: [{ nombre: "x", cantidad: 1, precio: 1, ...patch }] });
    expect(reasons(line({ cantidad: "0.0000001" }))).toEqual(["items[0].cantidad:format"]);
    expect(reasons(line({ cantidad: "1.123456", precio: "0.000001" }))).toEqual([]);
    expect(reasons(line({ precio: 0 }))).toEqual([]);
    expect(reasons(line({ cantidad: "abc" }))).toEqual(["items[0].cantidad:type"]);
    expect(reasons(line({ descuentoPorcentaje: "10.555" }))).toEqual(["items[0].descuento_porcentaje:format"]);
    expect(reasons(line({ precio: 1e12 }))).toEqual(["items[0].precio:maximum"]);
    expect(reasons(t33({ descuentoGlobalPorcentaje: -1 }))).toEqual(["descuento_global_porcentaje:minimum"]);
  });

  test("receiver giro, direccion and comuna are required on 33/34/56/61 only", () => {
    const receiver = { rut: "96670340-7", razonSocial: "Cliente" };
    for (const tipo of [33, 34, 56, 61] as const) {
      const note = tipo === 56 || tipo === 61;
      const input: DocumentInput = { ...SAMPLE_T33, tipo, receiver, referencias: [{ tipoDoc: 33, folio: 1, fecha: "2026-01-15", ...(note ? { codigo: 3 as const } : {}) }] };
      expect(reasons(input)).toEqual(["receptor.giro:required", "receptor.direccion:required", "receptor.comuna:required"]);
    }
    expect(reasons({ ...SAMPLE_T39, receiver })).toEqual([]);
    expect(reasons({ ...SAMPLE_T39, tipo: 41, receiver })).toEqual([]);
  });

  test("a note that modifies a boleta does not need the consumer's giro, direccion or comuna", () => {
    const consumer = { rut: "66666666-6", razonSocial: "Consumidor final" };
    for (const [tipo, tipoDoc, codigo] of [[61, 39, 1], [61, "41", 3], [56, 39, 3]] as const) {
      const referencias = [{ tipoDoc, folio: 7, fecha: "2026-01-15", codigo }];
      expect(reasons({ ...SAMPLE_T33, tipo, receiver: consumer, referencias })).toEqual([]);
      // what is given is still checked
      expect(reasons({ ...SAMPLE_T33, tipo, receiver: { ...consumer, comuna: "c".repeat(21) }, referencias })).toEqual(["receptor.comuna:max_length"]);
    }
    // an information reference to a boleta beside the factura being corrected does not lift the requirement
    const onFactura = [{ tipoDoc: 33, folio: 1, fecha: "2026-01-15", codigo: 3 as const }, { tipoDoc: "801", folio: 39, fecha: "2026-01-15" }];
    // (nor lets the anonymous consumer receive the note: see the test below)
    expect(reasons({ ...SAMPLE_T33, tipo: 61, receiver: consumer, referencias: onFactura })).toEqual(["receptor.rut:not_allowed", "receptor.giro:required", "receptor.direccion:required", "receptor.comuna:required"]);
  });

  test("the anonymous consumer 66666666-6 receives boletas and notes to boletas only: elsewhere receptor.rut is not_allowed", () => {
    const consumer = { rut: "66666666-6", razonSocial: "Consumidor final", giro: "Particular", direccion: "Sin dirección", comuna: "Santiago" };
    for (const tipo of [33, 34] as const) expect(reasons({ ...SAMPLE_T33, tipo, receiver: consumer })).toEqual(["receptor.rut:not_allowed"]);
    expect(reasons({ ...SAMPLE_T33, tipo: 33, receiver: { ...consumer, rut: "66.666.666-6" } })).toEqual(["receptor.rut:not_allowed"]);
    for (const tipo of [56, 61] as const) {
      const toFactura = [{ tipoDoc: 33, folio: 1, fecha: "2026-01-15", codigo: 3 as const }];
      expect(reasons({ ...SAMPLE_T33, tipo, receiver: consumer, referencias: toFactura })).toEqual(["receptor.rut:not_allowed"]);
      expect(reasons({ ...SAMPLE_T33, tipo, receiver: consumer, referencias: [{ tipoDoc: 39, folio: 7, fecha: "2026-01-15", codigo: 3 as const }] })).toEqual([]);
    }
    expect(reasons({ ...SAMPLE_T39, receiver: consumer })).toEqual([]);
    expect(reasons({ ...SAMPLE_T39, tipo: 41, receiver: consumer })).toEqual([]);
    const message = validateDocument({ ...SAMPLE_T33, receiver: consumer }).find((i) => i.path === "receptor.rut")?.message ?? "";
    expect(message).toContain("boletas");
  });

  test("additional taxes: a known code, on a taxable line of a 33/56/61 with net prices and no global discount", () => {
    const taxed = (patch: Partial<DocumentInput>, line: Partial<DocumentInput["items"][number]> = {}) =>
      reasons(t33({ items: [{ nombre: "Bebida", cantidad: 1, precio: 1000, impuestoAdicional: 27, ...line }], ...patch }));
    expect(taxed({})).toEqual([]);
    expect(taxed({ tipo: 61, referencias: [{ tipoDoc: 33, folio: 1, fecha: "2026-01-15", codigo: 3 }] })).toEqual([]);
    expect(taxed({}, { impuestoAdicional: 28 })).toEqual(["items[0].impuesto_adicional:enum"]); // diesel: per m³, not offered
    expect(taxed({}, { impuestoAdicional: "27" as unknown as number })).toEqual(["items[0].impuesto_adicional:enum"]);
    expect(taxed({ tipo: 39, receiver: { rut: "66666666-6", razonSocial: "Consumidor final" } })).toEqual(["items[0].impuesto_adicional:not_allowed"]);
    expect(taxed({ tipo: 34 })).toEqual(["items[0].impuesto_adicional:not_allowed"]);
    expect(taxed({}, { exento: true })).toEqual(["items[0].impuesto_adicional:not_allowed", "tipo:not_allowed"]);
    expect(taxed({ preciosBrutos: true })).toEqual(["items[0].impuesto_adicional:not_allowed"]);
    expect(taxed({ descuentoGlobalPorcentaje: 5 })).toEqual(["items[0].impuesto_adicional:not_allowed"]);
    const message = validateDocument(t33({ items: [{ nombre: "x", cantidad: 1, precio: 1, impuestoAdicional: 99 }] }))[0]?.message ?? "";
    expect(message).toContain("27 (Bebidas analcohólicas y minerales, 10 %)");
  });

  test("CodRef: notes only; corrige texto on credit notes only; on a tax document; a debit note annuls only a credit note", () => {
    const ref = (tipoDoc: number | string, codigo: 1 | 2 | 3) => [{ tipoDoc, folio: 1, fecha: "2026-01-15", codigo }];
    expect(reasons(t33({ referencias: ref(33, 2) }))).toEqual(["referencias[0].codigo:not_allowed"]);
    expect(reasons(t33({ tipo: 56, referencias: ref(33, 2) }))).toEqual(["referencias[0].codigo:not_allowed"]);
    expect(reasons(t33({ tipo: 61, referencias: ref("801", 3) }))).toEqual(["referencias[0].codigo:not_allowed"]);
    expect(reasons(t33({ tipo: 61, referencias: ref("SET", 1) }))).toEqual(["referencias[0].codigo:not_allowed"]);
    expect(reasons(t33({ tipo: 56, referencias: ref(33, 1) }))).toEqual(["referencias[0].codigo:not_allowed"]);
    expect(reasons(t33({ tipo: 61, referencias: ref(61, 1) }))).toEqual(["referencias[0].codigo:not_allowed"]);
    for (const [tipo, tipoDoc, codigo] of [[56, 61, 1], [56, 33, 3], [61, 33, 1], [61, 39, 1], [61, 33, 2], [61, 56, 3], [61, "30", 3]] as const) {
      expect(reasons(t33({ tipo, referencias: ref(tipoDoc, codigo) }))).toEqual([]);
    }
  });

  test("a tax document's FolioRef is a number from 1; other references may carry any text", () => {
    const ref = (tipoDoc: number | string, folio: number | string) => [{ tipoDoc, folio, fecha: "2026-01-15", codigo: 3 as const }];
    for (const folio of ["0", "000", "F-12", "12.5", -3, 0, 1.5]) {
      expect(reasons(t33({ tipo: 61, referencias: ref(33, folio) }))).toEqual(["referencias[0].folio:format"]);
    }
    for (const folio of ["1", "0042", 7, "2147483648"]) expect(reasons(t33({ tipo: 61, referencias: ref("30", folio) }))).toEqual([]);
    expect(reasons(t33({ referencias: [{ tipoDoc: "801", folio: "OC-0", fecha: "2026-01-15" }] }))).toEqual([]);
    expect(reasons(t33({ referencias: [{ tipoDoc: "SET", folio: "0", fecha: "2026-01-15" }] }))).toEqual([]);
  });

  test("TpoDocRef: a number must be a code of the manual's list, letters are free; FchRef from 2002-08-01 (formato DTE, Referencias)", () => {
    const ref = (tipoDoc: number | string, fecha = "2026-01-15") => [{ tipoDoc, folio: 1, fecha }];
    for (const tipoDoc of [5, 999, "0", 29, 816]) expect(reasons(t33({ referencias: ref(tipoDoc) }))).toEqual(["referencias[0].tipo_doc:enum"]);
    for (const tipoDoc of [30, 33, 52, 110, 801, 815, 820, "SET", "HES", "807"]) expect(reasons(t33({ referencias: ref(tipoDoc) }))).toEqual([]);
    expect(reasons(t33({ referencias: ref(33, "2001-01-01") }))).toEqual(["referencias[0].fecha:minimum"]);
    expect(reasons(t33({ referencias: ref(33, "2002-07-31") }))).toEqual(["referencias[0].fecha:minimum"]);
    expect(reasons(t33({ referencias: ref(33, "2002-08-01") }))).toEqual([]);
  });

  test("receptor RUT: the manual's range 100.000–99.999.999 with its check digit", () => {
    const receiver = (rut: string) => t33({ receiver: { ...SAMPLE_T33.receiver, rut } });
    expect(reasons(receiver("1-9"))).toEqual(["receptor.rut:minimum"]);
    expect(reasons(receiver("99.999-7"))).toEqual(["receptor.rut:minimum"]);
    expect(reasons(receiver("100000-4"))).toEqual([]);
    expect(reasons(receiver("99999999-9"))).toEqual([]);
    expect(reasons(receiver("100000000-7"))).toEqual(["receptor.rut:maximum"]);
    expect(reasons(receiver("1-8"))).toEqual(["receptor.rut:invalid_rut"]);
  });

  test("notes need a reference with a CodRef; annulments reference one document", () => {
    expect(reasons(t33({ tipo: 61 }))).toEqual(["referencia:required"]);
    expect(reasons(t33({ tipo: 56, referencias: [{ tipoDoc: 33, folio: 1, fecha: "2026-01-15" }] }))).toEqual(["referencias[0].codigo:required"]);
    const two = [
      { tipoDoc: 33, folio: 1, fecha: "2026-01-15", codigo: 1 as const },
      { tipoDoc: 33, folio: 2, fecha: "2026-01-15", codigo: 3 as const },
    ];
    expect(reasons(t33({ tipo: 61, referencias: two }))).toEqual(["referencias:not_allowed"]);
    expect(reasons(t33({ referencias: [{ tipoDoc: "ABCD", folio: "", fecha: "15-01-2026" }] }))).toEqual([
      "referencias[0].tipo_doc:max_length",
      "referencias[0].folio:required",
      "referencias[0].fecha:format",
    ]);
  });

  test("a 33 whose lines are all exempt must be a 34; exempt flags on 34/41 are fine", () => {
    const exempt = [{ nombre: "x", cantidad: 1, precio: 1, exento: true }];
    expect(reasons(t33({ items: exempt }))).toEqual(["tipo:not_allowed"]);
    expect(reasons(t33({ tipo: 34, items: exempt }))).toEqual([]);
    expect(reasons({ ...SAMPLE_T39, tipo: 41, items: exempt })).toEqual([]);
  });

  describe("guía de despacho (52)", () => {
    test("traslado.indicador is required on a 52, 1–7 (8, 9 below); despacho is optional, 1–3", () => {
      expect(reasons(t52({ traslado: undefined }))).toEqual(["traslado.indicador:required"]);
      expect(reasons(t52({ traslado: {} as never }))).toEqual(["traslado.indicador:required"]);
      for (const indicador of [0, 10, 1.5, "1", null]) {
        expect(reasons(t52({ traslado: { indicador } as never }))).toEqual([indicador === null ? "traslado.indicador:required" : "traslado.indicador:enum"]);
      }
      for (const despacho of [0, 4, "2"]) expect(reasons(t52({ traslado: { indicador: 1, despacho } as never }))).toEqual(["traslado.despacho:enum"]);
      expect(reasons(t52({ traslado: 1 as never }))).toEqual(["traslado:type"]);
      for (const indicador of [1, 2, 3, 4, 6, 7] as const) {
        for (const despacho of [undefined, 1, 2, 3] as const) {
          expect(validateDocument(t52({ traslado: despacho === undefined ? { indicador } : { indicador, despacho } }))).toEqual([]);
        }
      }
    });

    test("traslado and transporte on any other tipo are not allowed", () => {
      const extra = { traslado: { indicador: 1 as const }, transporte: { patente: "BBCL45" } };
      expect(reasons(t33(extra))).toEqual(["traslado:not_allowed", "transporte:not_allowed"]);
      for (const name of ["34 factura exenta", "39 boleta bruta", "41 boleta exenta", "56 nota de débito", "61 nota de crédito anula"]) {
        expect(reasons({ ...(CASES[name] as DocumentInput), ...extra })).toEqual(["traslado:not_allowed", "transporte:not_allowed"]);
      }
      expect(reasons(t33({ transporte: {} }))).toEqual(["transporte:not_allowed"]);
    });

    test("transporte: lengths of DTE_v10, RUT check digits, a driver with both RUT and name", () => {
      expect(validateDocument(t52({ transporte: undefined }))).toEqual([]);
      expect(validateDocument(t52({ transporte: {} }))).toEqual([]);
      expect(validateDocument(transport({ patente: "ABCD-123", chofer: { rut: "11111111-1", nombre: "n".repeat(30) } }))).toEqual([]);
      expect(reasons(transport({ patente: "ABCD-1234" }))).toEqual(["transporte.patente:max_length"]);
      expect(reasons(transport({ rutTransportista: "77777777-6" }))).toEqual(["transporte.rut_transportista:invalid_rut"]);
      expect(reasons(transport({ chofer: { rut: "12345678-9", nombre: "Pedro" } }))).toEqual(["transporte.chofer.rut:invalid_rut"]);
      expect(reasons(transport({ chofer: { rut: "12345678-5" } }))).toEqual(["transporte.chofer.nombre:required"]);
      expect(reasons(transport({ chofer: { nombre: "Pedro" } }))).toEqual(["transporte.chofer.rut:required"]);
      expect(reasons(transport({ chofer: { rut: "12345678-5", nombre: "n".repeat(31) } }))).toEqual(["transporte.chofer.nombre:max_length"]);
      expect(reasons(transport({ direccionDestino: "d".repeat(71), comunaDestino: "c".repeat(21), ciudadDestino: "c".repeat(21) }))).toEqual([
        "transporte.direccion_destino:max_length",
        "transporte.comuna_destino:max_length",
        "transporte.ciudad_destino:max_length",
      ]);
      expect(reasons(transport({ patente: "AB\n12", chofer: { rut: "12345678-5", nombre: "José ☃" } }))).toEqual(["transporte.patente:format", "transporte.chofer.nombre:charset"]);
    });

    test("a destination address needs its comuna (formato DTE: CmnaDest mandatory on guías)", () => {
      expect(reasons(transport({ comunaDestino: undefined }))).toEqual(["transporte.comuna_destino:required"]);
      expect(validateDocument(t52({ transporte: { comunaDestino: "Maipú" } }))).toEqual([]);
    });

    test("a traslado interno (5) goes from the issuer to itself", () => {
      const interno = CASES["52 traslado interno"] as DocumentInput;
      expect(validateDocument({ ...interno, receiver: { ...interno.receiver, rut: "76.192.083-9" } })).toEqual([]);
      expect(reasons({ ...interno, receiver: BUSINESS })).toEqual(["receptor.rut:not_allowed"]);
      expect(validateDocument({ ...interno, traslado: { indicador: 6 }, receiver: BUSINESS })).toEqual([]);
    });

    test("receiver giro, direccion and comuna are required; zero prices and a global discount are fine, gross prices are not", () => {
      expect(reasons(t52({ receiver: { rut: "96670340-7", razonSocial: "Cliente" } }))).toEqual(["receptor.giro:required", "receptor.direccion:required", "receptor.comuna:required"]);
      expect(validateDocument(t52({ items: [{ nombre: "Muestra sin valor", cantidad: 1, precio: 0 }] }))).toEqual([]);
      expect(validateDocument(t52({ descuentoGlobalPorcentaje: "2.5", formaPago: 1 }))).toEqual([]);
      expect(reasons(t52({ preciosBrutos: true }))).toEqual(["precios_brutos:not_allowed"]);
    });

    test("export guías (8, 9) are refused: they need customs data Timbre does not take", () => {
      for (const indicador of [8, 9] as const) expect(reasons(t52({ traslado: { indicador } }))).toEqual(["traslado.indicador:not_allowed"]);
    });

    test("no additional taxes on a guía; a 61 may annul it (CodRef 1)", () => {
      const taxed = reasons(t52({ items: [{ nombre: "Bebida", cantidad: 1, precio: 1000, impuestoAdicional: 27 }] }));
      expect(taxed).toEqual(["items[0].impuesto_adicional:not_allowed"]);
      expect(validateDocument(CASES["61 nota de crédito anula guía"] as DocumentInput)).toEqual([]);
      const annul = { ...(CASES["61 nota de crédito anula guía"] as DocumentInput) };
      expect(validateDocument({ ...annul, referencias: [{ tipoDoc: "52", folio: "21", fecha: "2026-01-15", codigo: 1 }] })).toEqual([]);
      expect(validateDocument({ ...annul, tipo: 56, referencias: [{ tipoDoc: 52, folio: 21, fecha: "2026-01-15", codigo: 3 }] })).toEqual([]);
    });
  });

  test("tipo, folio, fecha, RUTs, forma_pago, acteco", () => {
    expect(reasons(t33({ tipo: 43 as never }))).toEqual(["tipo:enum"]);
    expect(reasons(t33({ folio: 0, fecha: "2026-1-5", formaPago: 4 as never }))).toEqual(["folio:format", "fecha:format", "forma_pago:enum"]);
    expect(reasons(t33({ issuer: { ...SAMPLE_T33.issuer, rut: "1-1", acteco: [] } }))).toEqual(["emisor.rut:invalid_rut", "emisor.acteco:min_items"]);
    expect(reasons({ ...SAMPLE_T39, issuer: { ...SAMPLE_T39.issuer, acteco: [] } })).toEqual([]);
  });
});

/**
 * Request schemas of the tipos with their own shape (API.md §13): 46 factura de compra, 43 liquidación-factura and
 * 110–112 export documents. Closed like `EmitBody`: a field not named here is 422 `unknown`. Which schema checks a
 * body is its `tipo`'s (`emitSchemaOf`).
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { DATE_PATTERN } from "../../http/validation.js";
import { EmitBody, ItemBody, ReceptorBody, ReferenciaBody } from "./schemas.js";

const CLOSED = { additionalProperties: false } as const;
/** A decimal amount as a JSON number or as decimal text (`"112517.5"`), for exact values past a float's digits. */
const Decimal = (description: string) => Type.Union([Type.Number(), Type.String({ pattern: "^-?\\d{1,18}(\\.\\d{1,6})?$" })], { description });
const Code = (description: string) => Type.Integer({ minimum: 0, description });
const References = {
  referencia: Type.Optional(ReferenciaBody),
  referencias: Type.Optional(Type.Array(ReferenciaBody, { maxItems: 40 })),
};

export const PURCHASE_TIPOS = [46] as const;
export const LIQUIDATION_TIPOS = [43] as const;
export const EXPORT_TIPOS = [110, 111, 112] as const;

/**
 * 46: a 33's shape (the receptor is the seller), each line with its retention code. A 56/61 that references a 46
 * takes this shape too (it repeats the retention).
 */
export const PurchaseBody = Type.Object({
  tipo: Type.Union([Type.Literal(46), Type.Literal(56), Type.Literal(61)]),
  fecha: Type.Optional(Type.String({ pattern: DATE_PATTERN })),
  receptor: ReceptorBody,
  items: Type.Array(
    Type.Composite([
      Type.Omit(ItemBody, ["impuesto_adicional"]),
      Type.Object({
        retencion: Type.Optional(Type.Union([Type.Integer(), Type.Null()], {
          description: "ImptoReten code of the IVA retained on the line: 15 IVA retenido total (default), the partial codes 30, 32, 33, 34, 36, 37, 48 and their totals 301…481, 31, 38, 39, 41, 47, 49; null retains nothing",
        })),
      }),
    ], CLOSED),
    { minItems: 1, maxItems: 60 },
  ),
  // Not allowed on a 46 (its prices are net): named so it is refused as `not_allowed`, not as `unknown`.
  precios_brutos: Type.Optional(Type.Boolean({ description: "not allowed on a 46: its prices are net" })),
  ...References,
  forma_pago: EmitBody.properties.forma_pago,
  descuento_global_porcentaje: EmitBody.properties.descuento_global_porcentaje,
  observaciones: EmitBody.properties.observaciones,
}, CLOSED);

/**
 * 43: the documents the agent settles for the receptor (its principal) and the agent's commissions. A 56/61 that
 * references a 43 and carries `liquidacion` takes this shape too: it repeats the settled documents and commissions
 * it annuls or corrects (no negative amounts there), so its total is the 43's formula.
 */
export const LiquidationBody = Type.Object({
  tipo: Type.Union([Type.Literal(43), Type.Literal(56), Type.Literal(61)]),
  fecha: Type.Optional(Type.String({ pattern: DATE_PATTERN })),
  receptor: ReceptorBody,
  liquidacion: Type.Object({
    documentos: Type.Array(
      Type.Object({
        tipo_doc_liq: Type.Integer({ minimum: 1, maximum: 999, description: "TpoDocLiq: the settled document's tipo (30, 33, 35, 39, 56…) or 99" }),
        nombre: Type.String({ minLength: 1, maxLength: 80 }),
        descripcion: Type.Optional(Type.String({ maxLength: 1000 })),
        cantidad: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
        unidad: Type.Optional(Type.String({ maxLength: 4 })),
        monto: Type.Integer({ description: "MontoItem in pesos, may be negative" }),
        exento: Type.Optional(Type.Boolean()),
      }, CLOSED),
      { minItems: 1, maxItems: 60 },
    ),
    comisiones: Type.Optional(Type.Array(
      Type.Object({
        tipo: Type.Union([Type.Literal("C"), Type.Literal("O")], { description: "C comisión, O otros cargos" }),
        descripcion: Type.String({ minLength: 1, maxLength: 60 }),
        tasa_comision: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
        monto_neto: Type.Integer({ description: "ValComNeto, may be negative; its IVA is computed" }),
        monto_exento: Type.Optional(Type.Integer()),
      }, CLOSED),
      { maxItems: 20 },
    )),
  }, CLOSED),
  forma_pago: EmitBody.properties.forma_pago,
  ...References,
}, CLOSED);

/** 110–112: a foreign buyer, amounts in a foreign currency (the SII's name), the Aduana's data of the shipment. */
export const ExportBody = Type.Object({
  tipo: Type.Union([Type.Literal(110), Type.Literal(111), Type.Literal(112)]),
  fecha: Type.Optional(Type.String({ pattern: DATE_PATTERN })),
  receptor: Type.Object({
    razon_social: Type.String({ minLength: 1, maxLength: 100 }),
    extranjero: Type.Optional(Type.Object({
      num_id: Type.Optional(Type.String({ maxLength: 20 })),
      nacionalidad: Type.Optional(Code("Aduana country code (225 U.S.A., 504 ITALIA…)")),
    }, CLOSED)),
    giro: Type.Optional(Type.String({ maxLength: 40 })),
    direccion: Type.Optional(Type.String({ maxLength: 70 })),
    ciudad: Type.Optional(Type.String({ maxLength: 20 })),
    email: Type.Optional(Type.String({ maxLength: 80 })),
  }, { ...CLOSED, description: "the foreign buyer; its RUT is 55555555-5" }),
  items: Type.Array(
    Type.Object({
      nombre: Type.String({ minLength: 1, maxLength: 80 }),
      cantidad: Decimal("QtyItem, up to 6 decimals"),
      precio: Decimal("PrcItem in the document's currency, up to 6 decimals"),
      unidad: Type.Optional(Type.String({ maxLength: 4 })),
      descripcion: Type.Optional(Type.String({ maxLength: 1000 })),
      codigo: Type.Optional(Type.String({ maxLength: 35 })),
      descuento_porcentaje: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
      recargo_porcentaje: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    }, CLOSED),
    { minItems: 1, maxItems: 60 },
  ),
  moneda: Type.String({ minLength: 1, maxLength: 15, description: "TpoMoneda by the SII's name (\"DOLAR USA\", \"EURO\"…); an ISO code is refused" }),
  tipo_cambio: Decimal("pesos per unit of moneda (OtraMoneda/TpoCambio), up to 4 decimals"),
  forma_pago_exportacion: Type.Optional(Code("FmaPagExp: 1 COB1, 2 COBRANZA, 11 ACRED, 12 CBOF, 21 S/PAGO, 32 ANTICIPO…")),
  fecha_cancelacion: Type.Optional(Type.String({ pattern: DATE_PATTERN, description: "extension: FchCancel, required with forma_pago_exportacion 32" })),
  exportacion: Type.Optional(Type.Object({
    modalidad_venta: Type.Optional(Code("CodModVenta")),
    clausula_venta: Type.Optional(Code("CodClauVenta")),
    total_clausula: Type.Optional(Decimal("TotClauVenta, 2 decimals")),
    via_transporte: Type.Optional(Code("CodViaTransp")),
    nombre_transporte: Type.Optional(Type.String({ maxLength: 40 })),
    puerto_embarque: Type.Optional(Code("CodPtoEmbarque")),
    puerto_desembarque: Type.Optional(Code("CodPtoDesemb")),
    tara: Type.Optional(Decimal("Tara")),
    unidad_tara: Type.Optional(Code("CodUnidMedTara")),
    peso_bruto: Type.Optional(Decimal("PesoBruto")),
    unidad_peso_bruto: Type.Optional(Code("CodUnidPesoBruto")),
    peso_neto: Type.Optional(Decimal("PesoNeto")),
    unidad_peso_neto: Type.Optional(Code("CodUnidPesoNeto")),
    total_items: Type.Optional(Type.Integer({ minimum: 0 })),
    bultos: Type.Optional(Type.Array(Type.Object({
      tipo: Code("CodTpoBultos"),
      cantidad: Type.Integer({ minimum: 1 }),
      marcas: Type.String({ minLength: 1, maxLength: 255 }),
      id_container: Type.Optional(Type.String({ maxLength: 25 })),
      sello: Type.Optional(Type.String({ maxLength: 20 })),
      emisor_sello: Type.Optional(Type.String({ maxLength: 70 })),
    }, CLOSED), { maxItems: 10 })),
    flete: Type.Optional(Decimal("MntFlete in the document's currency; also a global charge that adds to the total")),
    seguro: Type.Optional(Decimal("MntSeguro, likewise")),
    pais_receptor: Type.Optional(Code("CodPaisRecep")),
    pais_destino: Type.Optional(Code("CodPaisDestin")),
    indicador_servicio: Type.Optional(Type.Union([Type.Literal(3), Type.Literal(4), Type.Literal(5)], { description: "IndServicio: 3 servicios calificados, 4 hotelería, 5 transporte terrestre internacional" })),
  }, CLOSED)),
  ...References,
}, CLOSED);

export type PurchaseRequest = Static<typeof PurchaseBody>;
export type LiquidationRequest = Static<typeof LiquidationBody>;
export type ExportRequest = Static<typeof ExportBody>;

const includes = (list: readonly number[], tipo: unknown): boolean => typeof tipo === "number" && list.includes(tipo);

/** A body's references' `tipo_doc`s (whatever their shape: the schema reports that). */
function referencedTipos(body: { referencia?: unknown; referencias?: unknown }): unknown[] {
  const refs = [body.referencia, ...(Array.isArray(body.referencias) ? body.referencias : [])];
  return refs.map((r) => (typeof r === "object" && r !== null ? Number((r as { tipo_doc?: unknown }).tipo_doc) : null));
}

/** The schema that checks this body: by its `tipo` (a 56/61 on a 46 as a 46, one on a 43 with `liquidacion` as a 43), the classic `EmitBody` otherwise. */
export function emitSchemaOf(body: unknown): TSchema {
  const object = typeof body === "object" && body !== null ? (body as { tipo?: unknown; referencia?: unknown; referencias?: unknown }) : {};
  const tipo = object.tipo;
  if (includes(PURCHASE_TIPOS, tipo)) return PurchaseBody;
  if ((tipo === 56 || tipo === 61) && referencedTipos(object).includes(46)) return PurchaseBody;
  if (includes(LIQUIDATION_TIPOS, tipo)) return LiquidationBody;
  if ((tipo === 56 || tipo === 61) && "liquidacion" in object && referencedTipos(object).includes(43)) return LiquidationBody;
  if (includes(EXPORT_TIPOS, tipo)) return ExportBody;
  return EmitBody;
}

/**
 * Every emission body as the API reference shows it: any of the tipos' closed shapes (`anyOf`: a 56/61 fits the
 * classic shape and, when it references a 46, the purchase shape). Which one checks a body is its `tipo`'s
 * (`emitSchemaOf`): a field of another tipo is refused there as `unknown`. A generated client gets one type per shape.
 */
export const AnyEmitBody = Type.Union([EmitBody, PurchaseBody, LiquidationBody, ExportBody], {
  description: "33, 34, 39, 41, 52, 56, 61 as in §6.3; 46 factura de compra, 43 liquidación-factura, 110–112 export documents (API.md §13)",
});

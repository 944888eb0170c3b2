import { Type } from "@sinclair/typebox";

/** An issuer of the SII's list (API.md §14). */
export const IssuerSchema = Type.Object({
  rut: Type.String(),
  razon_social: Type.String(),
  resolucion: Type.Union([Type.Object({ numero: Type.Integer(), fecha: Type.String() }), Type.Null()]),
  correo_intercambio: Type.Union([Type.String(), Type.Null()]),
});

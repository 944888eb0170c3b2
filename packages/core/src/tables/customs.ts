/**
 * The Aduana's code tables that export documents (110–112) use in `Transporte/Aduana` and `IdDoc/FmaPagExp`, with
 * the words printed for each code. Source and date: README.md beside this file.
 */
import type { CodeTable } from "./code-table.js";

/** `CodModVenta`: how the goods are sold. */
export const SALE_MODALITIES: CodeTable = [
  { code: 1, name: "A firme" },
  { code: 2, name: "Bajo condición" },
  { code: 3, name: "En consignación libre" },
  { code: 4, name: "En consignación con un mínimo a firme" },
  { code: 9, name: "Sin pago" },
];

/** `CodClauVenta`: the sale clause (Incoterm). */
export const SALE_CLAUSES: CodeTable = [
  { code: 1, name: "CIF" }, { code: 2, name: "CFR" }, { code: 3, name: "EXW" }, { code: 4, name: "FAS" },
  { code: 5, name: "FOB" }, { code: 6, name: "S/CL" }, { code: 8, name: "OTROS" }, { code: 9, name: "DDP" },
  { code: 10, name: "FCA" }, { code: 11, name: "CPT" }, { code: 12, name: "CIP" }, { code: 17, name: "DAT" },
  { code: 18, name: "DAP" },
];

/** `CodViaTransp`: the way of transport. */
export const TRANSPORT_WAYS: CodeTable = [
  { code: 1, name: "Marítima, fluvial y lacustre" },
  { code: 4, name: "Aéreo" },
  { code: 5, name: "Postal" },
  { code: 6, name: "Ferroviario" },
  { code: 7, name: "Carretero/terrestre" },
  { code: 8, name: "Oleoductos, gasoductos" },
  { code: 9, name: "Tendido eléctrico" },
  { code: 10, name: "Otra" },
];

/** `FmaPagExp`: the export payment form. */
export const EXPORT_PAYMENT_FORMS: CodeTable = [
  { code: 1, name: "COB1 (cobranza hasta 1 año)" },
  { code: 2, name: "COBRANZA (más de 1 año)" },
  { code: 11, name: "ACRED (acreditivo hasta 1 año)" },
  { code: 12, name: "CBOF (créditos de bancos y org. financieros más de 1 año)" },
  { code: 21, name: "S/PAGO (sin pago)" },
  { code: 32, name: "ANTICIPO" },
  ...range(50, 59, "ANT/COB (anticipo y cobranza más de 1 año)"),
  ...range(60, 69, "ANT/CRED (anticipo y crédito)"),
  ...range(70, 75, "ANT/COB (anticipo y cobranza hasta 1 año)"),
  ...range(80, 85, "S/PAGO/COB (sin pago y cobranza)"),
];

/** `IndServicio` of an export: 3 servicios calificados por Aduana, 4 hotelería, 5 transporte terrestre internacional. */
export const EXPORT_SERVICE_KINDS: CodeTable = [
  { code: 3, name: "Servicios calificados como exportación por Aduana" },
  { code: 4, name: "Servicios de hotelería" },
  { code: 5, name: "Servicio de transporte terrestre internacional" },
];

/** `CodUnidMedTara`, `CodUnidPesoBruto`, `CodUnidPesoNeto`: units of measure. */
export const CUSTOMS_UNITS: CodeTable = [
  { code: 1, name: "TMB" }, { code: 2, name: "QMB" }, { code: 3, name: "MKWH" }, { code: 4, name: "TMN" },
  { code: 5, name: "KLT" }, { code: 6, name: "KN" }, { code: 7, name: "GN" }, { code: 8, name: "HL" },
  { code: 9, name: "LT" }, { code: 10, name: "U" }, { code: 11, name: "DOC" }, { code: 12, name: "U(JGO)" },
  { code: 13, name: "MU" }, { code: 14, name: "MT" }, { code: 15, name: "MT2" }, { code: 16, name: "MCUB" },
  { code: 17, name: "PAR" }, { code: 18, name: "KNFC" }, { code: 19, name: "CARTON" }, { code: 20, name: "KWH" },
  { code: 23, name: "BAR" }, { code: 24, name: "M2/1MM" }, { code: 99, name: "S.U.M." },
];

/** `CodTpoBultos`: kinds of package. Container kinds also need `IdContainer` and `Sello`. */
export const PACKAGE_KINDS: CodeTable = [
  { code: 1, name: "POLVO" }, { code: 2, name: "GRANOS" }, { code: 4, name: "LIQUIDO" }, { code: 10, name: "PIEZA" },
  { code: 13, name: "ROLLOS" }, { code: 18, name: "TRONCOS" }, { code: 21, name: "CAJON" },
  { code: 22, name: "CAJA DE CARTON" }, { code: 23, name: "FARDO" }, { code: 32, name: "BOTELLA" },
  { code: 44, name: "BARRIL" }, { code: 45, name: "TAMBOR" }, { code: 61, name: "PAQUETE" }, { code: 62, name: "SACO" },
  { code: 64, name: "BOLSA" }, { code: 73, name: "CONT20" }, { code: 74, name: "CONT40" },
  { code: 75, name: "CONTENEDOR REFRIGERADO" }, { code: 76, name: "REEFER40" }, { code: 78, name: "CONTNOESP" },
  { code: 80, name: "PALLETS" }, { code: 89, name: "PLANCHAS" }, { code: 91, name: "BOBINA" },
  { code: 93, name: "BULTONOESP" }, { code: 98, name: "SIN BULTO" }, { code: 99, name: "S/EMBALAR" },
];

/** Package kinds that are containers. */
export const CONTAINER_PACKAGE_KINDS: readonly number[] = [73, 74, 75, 76, 78];

/** `Nacionalidad`, `CodPaisRecep`, `CodPaisDestin`: countries. */
export const COUNTRIES: CodeTable = [
  { code: 201, name: "VENEZUELA" }, { code: 202, name: "COLOMBIA" }, { code: 210, name: "PANAMA" },
  { code: 216, name: "MEXICO" }, { code: 218, name: "ECUADOR" }, { code: 219, name: "PERU" },
  { code: 220, name: "BRASIL" }, { code: 221, name: "BOLIVIA" }, { code: 222, name: "PARAGUAY" },
  { code: 223, name: "URUGUAY" }, { code: 224, name: "ARGENTINA" }, { code: 225, name: "U.S.A." },
  { code: 226, name: "CANADA" }, { code: 317, name: "INDIA" }, { code: 330, name: "TAIWAN" },
  { code: 331, name: "JAPON" }, { code: 332, name: "SINGAPUR" }, { code: 333, name: "COREA DEL SUR" },
  { code: 336, name: "CHINA" }, { code: 342, name: "HONG KONG" }, { code: 405, name: "NUEVA ZELANDIA" },
  { code: 406, name: "AUSTRALIA" }, { code: 504, name: "ITALIA" }, { code: 505, name: "FRANCIA" },
  { code: 508, name: "SUIZA" }, { code: 510, name: "REINO UNIDO" }, { code: 514, name: "BELGICA" },
  { code: 515, name: "HOLANDA" }, { code: 517, name: "ESPAÑA" }, { code: 563, name: "ALEMANIA" },
  { code: 997, name: "CHILE" }, { code: 999, name: "OTROS" },
];

/** `CodPtoEmbarque`, `CodPtoDesemb`: ports (Chilean ones are 901–997; 399…899 are "other ports" of a continent). */
export const PORTS: CodeTable = [
  { code: 134, name: "NEW YORK" }, { code: 141, name: "MIAMI" }, { code: 174, name: "LOS ANGELES" },
  { code: 252, name: "CALLAO" }, { code: 262, name: "BUENOS AIRES" }, { code: 292, name: "SANTOS" },
  { code: 399, name: "OTROS PUERTOS DE AMERICA" }, { code: 411, name: "SHANGAI" }, { code: 422, name: "BUSAN" },
  { code: 444, name: "YOKOHAMA" }, { code: 499, name: "OTROS PUERTOS DE ASIA" }, { code: 542, name: "GENOVA" },
  { code: 544, name: "NAPOLES" }, { code: 563, name: "BARCELONA" }, { code: 592, name: "HAMBURGO" },
  { code: 601, name: "AMBERES" }, { code: 622, name: "ROTTERDAM" }, { code: 699, name: "OTROS PUERTOS DE EUROPA" },
  { code: 799, name: "OTROS PUERTOS DE AFRICA" }, { code: 899, name: "OTROS PUERTOS DE OCEANIA" },
  { code: 901, name: "ARICA" }, { code: 902, name: "IQUIQUE" }, { code: 903, name: "ANTOFAGASTA" },
  { code: 904, name: "COQUIMBO" }, { code: 905, name: "VALPARAISO" }, { code: 906, name: "SAN ANTONIO" },
  { code: 907, name: "TALCAHUANO" }, { code: 908, name: "SAN VICENTE" }, { code: 909, name: "LIRQUEN" },
  { code: 910, name: "PUERTO MONTT" }, { code: 912, name: "PUNTA ARENAS" }, { code: 915, name: "MEJILLONES" },
  { code: 921, name: "QUINTERO" }, { code: 926, name: "CORONEL" }, { code: 965, name: "LOS LIBERTADORES" },
  { code: 987, name: "AEROP. CHACALLUTA" }, { code: 991, name: "AEROP. C.I. DEL CAMPO" },
  { code: 992, name: "AEROP. A.M. BENITEZ" }, { code: 997, name: "OTROS PUERTOS CHILENOS" },
];

function range(from: number, to: number, name: string): { code: number; name: string }[] {
  return Array.from({ length: to - from + 1 }, (_, i) => ({ code: from + i, name }));
}

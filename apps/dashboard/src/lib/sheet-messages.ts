/**
 * Spanish for what the spreadsheet reader (`@timbre/sdk/csv`) finds wrong in a file: each problem is said from its
 * `reason`, `column` and `value` — the SDK's own `message` is English and only the fallback for a reason added later.
 * The column is named as the API names it (`item.precio`), which is also how the template writes it.
 */
import { EMISSION_SHEET_COLUMNS, type CellKind, type SheetProblem } from "@timbre/sdk/csv";

/** What a cell of each kind should hold, completing «… no es …». */
const EXPECTED: Record<CellKind, string> = {
  text: "un texto válido",
  amount: "un número (2,5 o 12.990)",
  tipo: "un tipo de documento (33, 34, 39, 41, 52, 56 o 61)",
  date: "una fecha (25-11-2026 o 2026-11-25)",
  yesno: "sí o no",
  forma_pago: "una forma de pago (1 contado, 2 crédito o 3 sin costo)",
  ref_value: "un valor válido",
  codigo_ref: "un código de referencia (1 anula, 2 corrige texto o 3 corrige montos)",
};

/** One sentence for a problem of the sheet. */
export function describeSheetProblem(p: SheetProblem): string {
  const column = p.column ?? "";
  const value = p.value ?? "";
  switch (p.reason) {
    case "empty":
      return "El archivo está vacío: debe tener una fila de encabezados y una fila por cada línea de documento.";
    case "unknown_column":
      return `No existe la columna «${value || column}». Las columnas se llaman como los campos de la API (tipo, rut, razon_social, nombre, cantidad, precio…): revisa cómo está escrita o descarga la plantilla.`;
    case "duplicate_column":
      return `La columna ${column} aparece dos veces (una de ellas como «${value}»). Deja solo una.`;
    case "no_document":
      return "La fila no dice a qué documento pertenece: escribe su documento o su tipo (no hay un documento más arriba al que sumarla como línea).";
    case "conflict":
      return `${column} dice «${value}» aquí, pero ${p.other ? `la fila ${p.other.row} del mismo documento dice «${p.other.value}»` : "otra fila del mismo documento dice otra cosa"}. Repite el mismo valor o deja la celda vacía.`;
    case "no_items":
      return "El documento no tiene líneas: escribe nombre, cantidad y precio en sus filas.";
    case "not_a_sheet":
      return "No se puede leer este archivo como planilla: sube un Excel (.xlsx) o un CSV. Un Excel antiguo (.xls) o una planilla de LibreOffice (.ods) se guardan antes como .xlsx o CSV con «Guardar como».";
    case "invalid_value": {
      const kind = EMISSION_SHEET_COLUMNS.find((c) => c.name === column)?.kind ?? "text";
      return `«${value}» no es ${EXPECTED[kind]}.`;
    }
    default:
      return p.message;
  }
}

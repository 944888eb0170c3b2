/**
 * Documents as a spreadsheet for the accountant: one row per document with its tax date, receptor and amounts (plain
 * integers, so a spreadsheet sums them), UTF-8 with a byte-order mark so Excel keeps the accents. The CLI's
 * `dte list --csv` and the dashboard's "Descargar CSV" both write it.
 */
import type { Dte } from "../types.js";
import type { Separator } from "./csv-reader.js";
import { writeCsv } from "./sheet-files.js";

const COLUMNS: ReadonlyArray<[string, (d: Dte) => string | number | null]> = [
  ["id", (d) => d.id],
  ["tipo", (d) => d.tipo],
  ["folio", (d) => d.folio],
  ["fecha", (d) => d.fecha],
  ["receptor_rut", (d) => d.receptor.rut],
  ["receptor_razon_social", (d) => d.receptor.razon_social],
  ["monto_neto", (d) => d.monto_neto],
  ["monto_exento", (d) => d.monto_exento],
  ["monto_iva", (d) => d.monto_iva],
  ["monto_total", (d) => d.monto_total],
  ["estado", (d) => d.estado],
  ["track_id", (d) => d.track_id],
];

export function documentsCsv(documents: readonly Dte[], separator: Separator = ","): string {
  return `\uFEFF${writeCsv([COLUMNS.map(([header]) => header), ...documents.map((d) => COLUMNS.map(([, get]) => get(d)))], separator)}`;
}

/**
 * What came of sending a spreadsheet: the emitted documents (linked, with folio, total and state), those emitted
 * before from the same content said as such (within 24 h: shown with their folios, no folio taken), and the failed
 * ones at their spreadsheet rows with the API's reason in Spanish — plus a file of only their rows. Either that file
 * or the whole sheet, fixed, can be uploaded next: what was emitted is not emitted again. When a chunk failed
 * part-way, the way on is the same file again.
 */
import { type EmissionSheet, failedRowsCsv, rowSpan } from "@timbre/sdk/csv";
import { failedFileName, failuresOf } from "../lib/batch-failures.js";
import { h } from "../lib/dom.js";
import { countOf, ESTADO_TONE, ESTADOS, money, number, tipoName } from "../lib/format.js";
import { describeError } from "../lib/messages.js";
import type { Run } from "../lib/send-sheet.js";
import { badge, link, notice, table } from "../ui/components.js";

const count = (n: number): string => countOf(n, "documento", "documentos");

export interface ResultsOptions {
  sheet: EmissionSheet;
  /** The file's name, for the heading and the failed rows' file. */
  name: string;
  run: Run;
  /** The error that stopped the run part-way, if one did. */
  interruption: unknown;
  /** A download link for a CSV (the page revokes its URL when left). */
  csvLink: (csv: string, filename: string, text: string) => HTMLAnchorElement;
}

export function importResults({ sheet, name, run, interruption, csvLink }: ResultsOptions): HTMLElement {
  const emitted = run.outcomes.flatMap((o) => (o.result.success && o.result.data ? [{ document: o.document, dte: o.result.data, before: o.result.replayed === true }] : []));
  const before = emitted.filter((o) => o.before).length;
  const fresh = emitted.filter((o) => !o.before);
  const failed = run.outcomes.filter((o) => !o.result.success);
  const failures = failed.flatMap((o) => failuresOf(o.document, o.result.error));
  const amount = fresh.reduce((s, o) => s + o.dte.monto_total, 0);
  const sent = run.outcomes.length;
  return h(
    "section",
    { class: "card" },
    h("h2", { tabindex: "-1" }, `Resultado de ${name}`),
    fresh.length > 0 ? notice("success", `${fresh.length === 1 ? "Se emitió" : "Se emitieron"} ${number(fresh.length)} de ${count(sent)}, por ${money(amount)} en total.`) : null,
    before > 0
      ? notice(
          "info",
          before === sent
            ? "Todos los documentos de este archivo ya se habían emitido en las últimas 24 horas: se muestran con sus folios y no se usó ningún folio nuevo."
            : `${before === 1 ? "1 documento ya se había emitido" : `${number(before)} documentos ya se habían emitido`} en las últimas 24 horas: ${before === 1 ? "se muestra con su folio y no se emitió" : "se muestran con sus folios y no se emitieron"} de nuevo.`,
        )
      : null,
    interruption
      ? notice("error", `El envío se interrumpió después de ${count(sent)} de ${number(sheet.documents.length)}: ${describeError(interruption)} Vuelve a subir este mismo archivo y emite: lo ya emitido no se emite dos veces.`)
      : null,
    emitted.length > 0
      ? [
          h("h3", null, "Emitidos"),
          table("Documentos emitidos", [
            { label: "Filas", cell: (o) => rowSpan(o.document.rows), className: "num" },
            {
              label: "Documento",
              cell: (o) => h("span", null, link(`/dashboard/documentos/${o.dte.id}`, h("span", null, h("strong", null, tipoName(o.dte.tipo)), ` N° ${o.dte.folio}`)), o.before ? [h("br"), h("span", { class: "small muted" }, "emitido antes")] : null),
            },
            { label: "Receptor", cell: (o) => o.dte.receptor.razon_social },
            { label: "Total", cell: (o) => money(o.dte.monto_total), className: "num" },
            { label: "Estado", cell: (o) => badge(ESTADOS[o.dte.estado] ?? o.dte.estado, ESTADO_TONE[o.dte.estado] ?? "neutral") },
          ], emitted),
        ]
      : null,
    failed.length > 0
      ? [
          h("h3", null, "Con error"),
          notice("error", `${count(failed.length)} no se ${failed.length === 1 ? "emitió" : "emitieron"}.`),
          table("Documentos con error", [
            { label: "Fila", cell: (f) => String(f.row ?? f.document.rows[0]), className: "num" },
            { label: "Documento", cell: (f) => h("span", null, tipoName(f.document.params.tipo), h("br"), h("span", { class: "small muted" }, f.document.params.receptor.razon_social ?? "")) },
            { label: "Problema", cell: (f) => f.message },
          ], failures),
        ]
      : null,
    failed.length > 0 && !interruption
      ? [
          h("div", { class: "actions" }, csvLink(failedRowsCsv(sheet, failures), failedFileName(name), "Descargar filas con error")),
          h(
            "p",
            { class: "hint" },
            "El archivo trae solo las filas de los documentos que no se emitieron, con el motivo en la columna «error». Corrígelas en ese archivo y súbelo aquí, o corrige tu planilla y súbela completa: lo ya emitido no se emite de nuevo.",
          ),
        ]
      : null,
    h("div", { class: "actions" }, link("/dashboard/documentos", "Ver documentos", "btn btn-secondary")),
  );
}

/**
 * "Importar ventas (Excel o CSV)": the sales a small business keeps in Excel, emitted at once. The file is read whole, in the
 * browser, by `@timbre/sdk/csv` (the CLI's `timbre dte batch` reader): a file with problems shows every one of them by
 * row, in Spanish, and sends nothing. Otherwise the API checks it as the batch would (`POST /dte/batch/preview`: no
 * folio, nothing stored) and its documents are listed with their totals and, for those the batch would refuse (a
 * wrong RUT, folios that would run out…), the reason at their row, with a file of those rows — so the sheet can be
 * fixed before anything is emitted. Documents are keyed by their content (`lib/send-sheet.ts`), so the check also
 * shows those emitted before within 24 h — a second upload of the same file, or the sheet fixed and uploaded whole —
 * with their folios, and they are not emitted again (unless "emitir también los ya emitidos" says they are other,
 * equal sales). After a confirmation the rest is sent to `POST /dte/batch` in chunks within the API's limits. The
 * results (`import-results.ts`) link the emitted documents and list the failed ones at their rows, with a file of
 * only those rows to fix and upload; the whole sheet, fixed, works as well.
 */
import type { BatchPreviewItem } from "@timbre/sdk";
import { type EmissionSheet, emissionSheetTemplate, failedRowsCsv, readEmissionFile, rowSpan, type SheetDocument } from "@timbre/sdk/csv";
import { ApiError } from "../lib/api.js";
import { failedFileName, failuresOf } from "../lib/batch-failures.js";
import { h, replace } from "../lib/dom.js";
import { countOf, ENV_NAMES, money, number, tipoName } from "../lib/format.js";
import { describeError } from "../lib/messages.js";
import { checkSheet, newRun, sendSheet } from "../lib/send-sheet.js";
import { describeSheetProblem } from "../lib/sheet-messages.js";
import type { PageContext } from "../router.js";
import { state } from "../state.js";
import { badge, card, link, notice, pageHeader, table } from "../ui/components.js";
import { confirmDialog } from "../ui/dialog.js";
import { busy, checkbox, field, formAlert, isChecked, showAlert, showError } from "../ui/form.js";
import { emissionWarnings } from "./emission-warnings.js";
import { importResults, type ResultsOptions } from "./import-results.js";
import { requireBusiness } from "./require-business.js";

/** The columns named in the page's explanation (the template has them all). */
const COLUMNS = ["tipo", "fecha", "rut", "razon_social", "giro", "direccion", "comuna", "nombre", "cantidad", "precio", "exento"];
const count = (n: number): string => countOf(n, "documento", "documentos");

/** A document of the sheet with the API's verdict on it before emitting. */
type Checked = { document: SheetDocument; result: BatchPreviewItem };

export async function importDocumentsPage(ctx: PageContext): Promise<void> {
  const b = requireBusiness(ctx, "Importar ventas (Excel o CSV)");
  if (!b) return;
  const environment = state.environment();
  const urls: string[] = [];
  ctx.onLeave(() => urls.forEach((u) => URL.revokeObjectURL(u)));
  /** A link that saves `csv` as `filename`, with the byte-order mark that tells Excel it is UTF-8. */
  const csvLink = (csv: string, filename: string, text: string): HTMLAnchorElement => {
    const href = URL.createObjectURL(new Blob([`\uFEFF${csv}`], { type: "text/csv;charset=utf-8" }));
    urls.push(href);
    return h("a", { href, download: filename, class: "btn btn-secondary" }, text);
  };

  const region = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    { novalidate: true, class: "stack", "aria-label": "Archivo de ventas" },
    formAlert(),
    field({ name: "file", label: "Archivo de ventas (.xlsx o .csv)", type: "file", hint: "Se lee aquí, en tu navegador: nada se envía hasta que confirmes.", attrs: { accept: ".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" } }),
  );
  const input = form.elements.namedItem("file") as HTMLInputElement;
  input.addEventListener("click", () => (input.value = "")); // the same file, fixed in Excel, is read again
  form.addEventListener("submit", (event) => event.preventDefault());
  input.addEventListener("change", async () => {
    const file = input.files?.[0];
    if (!file) return;
    const alert = form.querySelector<HTMLElement>(".alert");
    if (alert) alert.hidden = true;
    try {
      const sheet = await readEmissionFile(new Uint8Array(await file.arrayBuffer()));
      if (sheet.problems.length > 0 || sheet.documents.length === 0) return showSheet(sheet, file.name, []);
      replace(region, card(file.name, h("p", { class: "muted" }, `Revisando ${count(sheet.documents.length)} con el servidor…`)));
      showSheet(sheet, file.name, await checkSheet(sheet));
    } catch (error) {
      replace(region);
      if (alert) showAlert(alert, error instanceof ApiError ? `No se pudo revisar el archivo: ${describeError(error)}` : "No se pudo leer el archivo. Vuelve a elegirlo.");
    }
  });

  const showResults = (options: ResultsOptions) => {
    const results = importResults(options);
    replace(region, results);
    results.querySelector("h2")?.focus();
  };

  const showSheet = (sheet: EmissionSheet, name: string, checked: Checked[]) => {
    if (sheet.problems.length > 0) return replace(region, problemsCard(sheet, name));
    if (sheet.documents.length === 0) return replace(region, card(name, notice("warn", "El archivo no tiene documentos: solo la fila de encabezados.")));
    // Emitted before under the same content keys (lib/send-sheet.ts): shown with their folios, not emitted again.
    const before = checked.filter((c) => c.result.success && c.result.replayed);
    const valid = checked.filter((c) => c.result.success && !c.result.replayed);
    const refused = checked.filter((c) => !c.result.success);
    const refusals = refused.flatMap((c) => failuresOf(c.document, c.result.error));
    const totalOf = (list: Checked[]) => list.reduce((s, c) => s + (c.result.data?.totals.monto_total ?? 0), 0);
    const button = h("button", { type: "submit", class: "btn" });
    const again = before.length > 0
      ? checkbox("anew", `Emitir también ${before.length === 1 ? "el ya emitido como documento nuevo" : `los ${number(before.length)} ya emitidos como documentos nuevos`}`, "Solo si son otras ventas iguales a las ya emitidas: cada uno usará un folio nuevo.", false)
      : null;
    const emitForm = h("form", { class: "stack", "aria-label": "Emitir los documentos del archivo" }, formAlert(), again, h("div", { class: "actions" }, button));
    const anew = () => isChecked(emitForm, "anew");
    const toEmit = () => (anew() ? [...valid, ...before] : valid);
    const label = () => {
      const n = toEmit().length;
      button.textContent = refused.length > 0 ? `Emitir ${count(n)} sin errores` : `Emitir ${count(n)}`;
      button.disabled = n === 0;
    };
    label();
    emitForm.addEventListener("change", label);
    emitForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      const n = toEmit().length;
      const sum = totalOf(toEmit());
      if (n === 0) return;
      const ok = await confirmDialog({
        title: `¿Emitir ${count(n)} por ${money(sum)}?`,
        body: `Se usará un folio por documento y se enviarán al SII (${ENV_NAMES[environment]}). Los que tengan errores no se emiten: podrás descargar sus filas para corregirlas. Un documento emitido no se borra: se corrige o anula con una nota de crédito o débito.`,
        confirm: "Emitir",
      });
      if (!ok) return;
      const run = newRun();
      input.disabled = true; // another file chosen meanwhile would hide these results
      try {
        const emittedBefore = anew() ? new Set(before.map((c) => c.result.index)) : new Set<number>();
        await busy(emitForm, `Emitiendo ${count(n)}…`, () => sendSheet(sheet, run, { anew: emittedBefore }));
        input.value = "";
        showResults({ sheet, name, run, interruption: null, csvLink });
      } catch (error) {
        if (run.outcomes.length === 0) showError(emitForm, error);
        else showResults({ sheet, name, run, interruption: error, csvLink });
      } finally {
        input.disabled = false;
      }
    });
    replace(
      region,
      card(
        `Documentos de ${name}`,
        h(
          "p",
          { "data-testid": "import-summary" },
          h("strong", null, summaryOf(checked.length, valid.length, totalOf(valid), before.length, refused.length)),
        ),
        before.length > 0
          ? notice("info", `${before.length === 1 ? "1 documento ya se emitió" : `${number(before.length)} documentos ya se emitieron`} desde este mismo contenido en las últimas 24 horas (con este archivo o uno anterior): no se ${before.length === 1 ? "emitirá" : "emitirán"} de nuevo.`)
          : null,
        refused.length > 0
          ? [
              notice("warn", `${count(refused.length)} ${refused.length === 1 ? "tiene errores y no se emitirá" : "tienen errores y no se emitirán"}. Lo mejor es corregirlos en tu planilla y volver a subirla; o emite los demás ahora y corrige después solo las filas con error.`),
              h("div", { class: "actions" }, csvLink(failedRowsCsv(sheet, refusals), failedFileName(name), "Descargar filas con error")),
            ]
          : null,
        table<Checked>("Documentos que se emitirán", [
          { label: "Filas", cell: (c) => rowSpan(c.document.rows), className: "num" },
          { label: "Tipo", cell: (c) => tipoName(c.document.params.tipo) },
          { label: "Receptor", cell: (c) => h("span", null, c.document.params.receptor.razon_social ?? "—", h("br"), h("span", { class: "mono small muted" }, c.document.params.receptor.rut ?? "")) },
          { label: "Líneas", cell: (c) => number(c.document.params.items.length), className: "num" },
          { label: "Total", cell: (c) => (c.result.data ? money(c.result.data.totals.monto_total) : "—"), className: "num" },
          {
            label: "Revisión",
            cell: (c) => {
              const emittedBefore = c.result.data?.document;
              if (c.result.success && emittedBefore) return link(`/dashboard/documentos/${emittedBefore.id}`, badge(`Ya emitido · N° ${emittedBefore.folio}`, "info"));
              if (c.result.success) return badge("Lista", "ok");
              return h("span", null, ...refusals.filter((f) => f.document === c.document).flatMap((f, i) => [i > 0 ? h("br") : null, `Fila ${f.row}: ${f.message}`]));
            },
          },
        ], checked),
        valid.length > 0 || before.length > 0 ? emitForm : notice("error", "Ningún documento puede emitirse: corrige el archivo y vuelve a subirlo."),
      ),
    );
  };

  replace(
    ctx.main,
    pageHeader("Importar ventas (Excel o CSV)", `${b.razon_social} · ${ENV_NAMES[environment]}`, link("/dashboard/documentos", "← Documentos", "btn btn-secondary")),
    ...emissionWarnings(b, environment, true),
    card(
      "El archivo",
      h("p", null, "Un Excel (.xlsx, su primera hoja) o una planilla guardada como CSV, con una fila por cada línea de un documento. Las columnas se llaman como los campos de la API: ", COLUMNS.flatMap((c, i) => [i > 0 ? ", " : "", h("code", null, c)]), "…"),
      h("p", null, "Las filas con el mismo ", h("code", null, "documento"), " forman un documento. En una boleta puedes dejar vacío el receptor (consumidor final) y sus precios incluyen IVA. Los números se escriben como en Chile (2,5 y 12.990) y las fechas como 25-11-2026. También sirve el CSV que guarda Excel (separado por punto y coma, con tildes y eñes)."),
      h("div", { class: "actions" }, csvLink(emissionSheetTemplate(";"), "plantilla-ventas.csv", "Descargar plantilla")),
    ),
    card("Subir archivo", form),
    region,
  );
}

/** "3 documentos, 2 sin errores por $38.416"; with documents emitted before, "3 documentos: 1 por emitir por $4.500, 2 ya emitidos". */
function summaryOf(total: number, toEmit: number, amount: number, before: number, refused: number): string {
  if (before === 0) return refused > 0 ? `${count(total)}, ${number(toEmit)} sin errores por ${money(amount)}` : `${count(toEmit)} por ${money(amount)}`;
  const parts = [`${number(toEmit)} por emitir${toEmit > 0 ? ` por ${money(amount)}` : ""}`, `${number(before)} ya ${before === 1 ? "emitido" : "emitidos"}`];
  if (refused > 0) parts.push(`${number(refused)} con errores`);
  return `${count(total)}: ${parts.join(", ")}`;
}

/** A sheet whose problems keep anything from being sent: every problem, by row, in Spanish. */
function problemsCard(sheet: EmissionSheet, name: string): HTMLElement {
  const n = sheet.problems.length;
  return card(
    `Problemas en ${name}`,
    notice("error", `El archivo tiene ${countOf(n, "problema", "problemas")} y no se emitió nada. Corrígelos en tu planilla, guárdala como CSV y vuelve a subirla.`),
    table("Problemas del archivo", [
      { label: "Fila", cell: (p) => String(p.row), className: "num" },
      { label: "Columna", cell: (p) => (p.column ? h("code", null, p.column) : "—") },
      { label: "Problema", cell: (p) => describeSheetProblem(p) },
    ], sheet.problems),
  );
}

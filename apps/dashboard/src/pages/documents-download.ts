/**
 * "Descargar CSV" on the documents page: every document the filters select (all pages, not the one shown), as the
 * same sales-ledger CSV the CLI's `dte list --csv` writes (`documentsCsv` of `@timbre/sdk/csv`; `;`, UTF-8 with a BOM,
 * so Excel in Chile opens it with its accents). Named after the period when there is one.
 */
import type { Dte } from "@timbre/sdk";
import { documentsCsv } from "@timbre/sdk/csv";
import { api, type Query } from "../lib/api.js";
import { h } from "../lib/dom.js";
import { countOf } from "../lib/format.js";
import { formAlert, showError } from "../ui/form.js";

const PAGE = 100; // the API's largest page

export async function allDocuments(query: Query): Promise<Dte[]> {
  const first = await api.list<Dte>("/dte", { ...query, page: 1, limit: PAGE });
  const rest = await Promise.all(
    Array.from({ length: first.pagination.total_pages - 1 }, (_, i) => api.list<Dte>("/dte", { ...query, page: i + 2, limit: PAGE }).then((r) => r.data)),
  );
  return [...first.data, ...rest.flat()];
}

export function csvFileName(query: Query): string {
  const { desde, hasta } = query;
  return desde && hasta ? `documentos-${desde}-a-${hasta}.csv` : "documentos.csv";
}

/** A form with one button that downloads the filtered documents; errors show in the form. */
export function downloadCsvForm(query: Query, total: number): HTMLFormElement {
  const label = `Descargar CSV (${countOf(total, "documento", "documentos")})`;
  const form = h(
    "form",
    { class: "actions", "aria-label": "Descargar los documentos filtrados" },
    formAlert(),
    h("button", { type: "submit", class: "btn btn-secondary btn-small" }, label),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button")!;
    button.disabled = true;
    button.textContent = "Preparando CSV…";
    try {
      const documents = await allDocuments(query);
      const href = URL.createObjectURL(new Blob([documentsCsv(documents, ";")], { type: "text/csv;charset=utf-8" }));
      const link = h("a", { href, download: csvFileName(query), hidden: true });
      form.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(href), 60_000);
    } catch (error) {
      showError(form, error);
    } finally {
      button.disabled = false;
      button.textContent = label;
    }
  });
  return form;
}

/**
 * The lines of the emission form: one fieldset per line (nombre, cantidad, unidad, precio, descuento, exento, the
 * additional tax on facturas and their notes, its amount), added and removed by the user, renumbered so that every control's name stays the API's path
 * (`items[2].precio`) and server errors land on it. At most `maxLines()`; the last line cannot be removed.
 */
import { ADDITIONAL_TAXES, additionalTaxLabel } from "@timbre/core/totals";
import type { EmitParams } from "@timbre/sdk";
import { h } from "../lib/dom.js";
import { money } from "../lib/format.js";
import { checkbox, field, isChecked, value } from "../ui/form.js";

export type DraftLine = Partial<Record<"nombre" | "cantidad" | "unidad" | "precio" | "descuento_porcentaje" | "descripcion", string | number>> & {
  exento?: boolean;
  impuesto_adicional?: number;
};

export interface LineItems {
  /** The lines and the "add" button. */
  element: HTMLElement;
  /** Reads the lines; `num` turns a typed number into a value (or records a problem). */
  read(form: HTMLFormElement, num: (name: string) => number | undefined, exemptAllowed: boolean, taxesAllowed: boolean): EmitParams["items"];
  /** Prints each line's amount (null: not computable yet). */
  showAmounts(amounts: Array<number | null>): void;
  /** Hides the per-line exempt boxes (exempt tipos: every line is). */
  showExempt(visible: boolean): void;
  /** Shows the per-line additional tax (facturas 33 and their notes only). */
  showTaxes(visible: boolean): void;
  /** Re-applies the line limit (it depends on the tipo). */
  renumber(): void;
}

// numbers as typed in Chile: a decimal comma, no thousands separator (parseAmount reads both back)
const asTyped = (x: string | number | undefined) => (x === undefined ? undefined : typeof x === "number" ? String(x).replace(".", ",") : x);

export function lineItems(opts: { lines: DraftLine[]; maxLines: () => number; onChange: () => void }): LineItems {
  const list = h("div", { class: "lines" });
  const add = h("button", { type: "button", class: "btn btn-secondary btn-small" }, "+ Agregar ítem");
  const limit = h("p", { class: "hint", "aria-live": "polite" });
  const rows = () => [...list.querySelectorAll<HTMLElement>(".line")];
  let exemptVisible = true;
  let taxesVisible = false;
  const TAX_OPTIONS: Array<[string, string]> = [["", "Sin impuesto adicional"], ...ADDITIONAL_TAXES.map((t): [string, string] => [String(t.codigo), additionalTaxLabel(t.codigo)])];

  const renumber = () => {
    rows().forEach((row, i) => {
      row.querySelector("legend")!.textContent = `Ítem ${i + 1}`;
      for (const el of row.querySelectorAll<HTMLElement>("[data-field]")) el.dataset.field = el.dataset.field!.replace(/^items\[\d+\]/, `items[${i}]`);
      for (const el of row.querySelectorAll<HTMLInputElement>("[name]")) el.name = el.name.replace(/^items\[\d+\]/, `items[${i}]`);
    });
    const n = rows().length;
    const max = opts.maxLines();
    add.disabled = n >= max;
    limit.textContent = n >= max ? `Máximo ${max} ítems en este tipo de documento.` : "";
    for (const b of list.querySelectorAll<HTMLButtonElement>("[data-action=remove]")) b.disabled = n === 1;
  };

  const addRow = (item: DraftLine = {}) => {
    const i = rows().length;
    const exempt = checkbox(`items[${i}].exento`, "Exento de IVA", null, item.exento === true);
    exempt.hidden = !exemptVisible;
    const tax = field({ name: `items[${i}].impuesto_adicional`, label: "Impuesto adicional", options: TAX_OPTIONS, value: item.impuesto_adicional === undefined ? "" : String(item.impuesto_adicional) });
    tax.classList.add("line-tax");
    tax.hidden = !taxesVisible;
    const row = h(
      "fieldset",
      { class: "line" },
      h("legend", null, `Ítem ${i + 1}`),
      h(
        "div",
        { class: "line-grid" },
        field({ name: `items[${i}].nombre`, label: "Nombre", required: true, value: asTyped(item.nombre), attrs: { maxlength: 80 } }),
        field({ name: `items[${i}].cantidad`, label: "Cantidad", required: true, value: asTyped(item.cantidad) ?? "1", attrs: { inputmode: "decimal", autocomplete: "off" } }),
        field({ name: `items[${i}].unidad`, label: "Unidad", value: asTyped(item.unidad), attrs: { maxlength: 4, autocomplete: "off", placeholder: "kg" } }),
        field({ name: `items[${i}].precio`, label: "Precio", required: true, value: asTyped(item.precio), attrs: { inputmode: "decimal", autocomplete: "off" } }),
        field({ name: `items[${i}].descuento_porcentaje`, label: "Dcto. %", value: asTyped(item.descuento_porcentaje), attrs: { inputmode: "decimal", autocomplete: "off" } }),
        tax,
      ),
      // the line's longer text (printed under its name), folded away unless it has one
      h(
        "details",
        { class: "line-more", open: item.descripcion ? true : undefined },
        h("summary", null, "Descripción"),
        field({ name: `items[${i}].descripcion`, label: "Descripción del ítem", multiline: true, value: asTyped(item.descripcion), attrs: { maxlength: 1000 }, hint: "Detalle impreso bajo el nombre (hasta 1000 caracteres)." }),
      ),
      h("div", { class: "line-foot" }, exempt, h("span", { class: "line-amount", "aria-live": "off" }), h("button", { type: "button", class: "btn btn-danger-ghost btn-small", "data-action": "remove" }, "Quitar")),
    );
    list.append(row);
    renumber();
    return row;
  };

  list.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("[data-action=remove]") : null;
    const row = button?.closest(".line");
    if (!row) return;
    const next = (row.nextElementSibling ?? row.previousElementSibling) as HTMLElement | null;
    row.remove();
    renumber();
    opts.onChange();
    next?.querySelector<HTMLElement>("input")?.focus();
  });
  add.addEventListener("click", () => {
    addRow().querySelector<HTMLElement>("input")?.focus();
    opts.onChange();
  });
  for (const item of opts.lines.length > 0 ? opts.lines : [{}]) addRow(item);

  return {
    element: h("div", null, list, h("div", { class: "actions" }, add, limit)),
    renumber,
    read(form, num, exemptAllowed, taxesAllowed) {
      return rows().map((_, i) => {
        const p = `items[${i}]`;
        const item: Record<string, unknown> = { nombre: value(form, `${p}.nombre`), cantidad: num(`${p}.cantidad`), precio: num(`${p}.precio`) };
        for (const text of ["unidad", "descripcion"] as const) {
          const v = value(form, `${p}.${text}`);
          if (v) item[text] = v;
        }
        const pct = num(`${p}.descuento_porcentaje`);
        if (pct !== undefined) item.descuento_porcentaje = pct;
        if (exemptAllowed && isChecked(form, `${p}.exento`)) item.exento = true;
        const code = value(form, `${p}.impuesto_adicional`);
        if (taxesAllowed && code !== "") item.impuesto_adicional = Number(code);
        for (const k of Object.keys(item)) if (item[k] === undefined) delete item[k];
        return item as unknown as EmitParams["items"][number];
      });
    },
    showAmounts(amounts) {
      rows().forEach((row, i) => {
        const amount = amounts[i];
        row.querySelector<HTMLElement>(".line-amount")!.textContent = amount === null || amount === undefined ? "" : `Monto: ${money(amount)}`;
      });
    },
    showTaxes(visible) {
      taxesVisible = visible;
      for (const el of list.querySelectorAll<HTMLElement>(".line-tax")) el.hidden = !visible;
    },
    showExempt(visible) {
      exemptVisible = visible;
      for (const box of list.querySelectorAll<HTMLElement>(".line-foot .check")) box.hidden = !visible;
    },
  };
}

/** Shared visual pieces: page header, cards, badges, tables that stack on phones, pagination, empty states. */
import type { Pagination } from "@timbre/sdk";
import { h, type Child } from "../lib/dom.js";

export function pageHeader(title: string, intro?: Child, actions?: Child): HTMLElement {
  return h(
    "div",
    { class: "page-header" },
    h("div", null, h("h1", { tabindex: "-1" }, title), intro ? h("p", { class: "muted" }, intro) : null),
    actions ? h("div", { class: "actions" }, actions) : null,
  );
}

export function card(title: string | null, ...children: Child[]): HTMLElement {
  return h("section", { class: "card" }, title ? h("h2", null, title) : null, ...children);
}

export function badge(text: string, tone = "neutral"): HTMLElement {
  return h("span", { class: `badge badge-${tone}` }, text);
}

export function notice(tone: "info" | "warn" | "error" | "success", ...children: Child[]): HTMLElement {
  return h("div", { class: `notice notice-${tone}`, role: tone === "error" ? "alert" : "status" }, ...children);
}

export interface Column<T> {
  label: string;
  cell: (row: T) => Child;
  className?: string;
}

/** A table whose cells carry `data-label`, so the CSS can stack rows as cards on narrow screens. */
export function table<T>(caption: string, columns: Column<T>[], rows: T[]): HTMLElement {
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { class: "table" },
      h("caption", { class: "sr-only" }, caption),
      h("thead", null, h("tr", null, ...columns.map((c) => h("th", { scope: "col", class: c.className }, c.label)))),
      h("tbody", null, ...rows.map((row) => h("tr", null, ...columns.map((c) => h("td", { "data-label": c.label, class: c.className }, c.cell(row)))))),
    ),
  );
}

export function empty(title: string, ...children: Child[]): HTMLElement {
  return h("div", { class: "empty" }, h("p", { class: "empty-title" }, title), ...children);
}

export function loading(text = "Cargando…"): HTMLElement {
  return h("p", { class: "loading", role: "status" }, text);
}

export function pager(p: Pagination, go: (page: number) => void): HTMLElement {
  const pages = Math.max(1, p.total_pages);
  return h(
    "nav",
    { class: "pager", "aria-label": "Paginación" },
    h("button", { type: "button", class: "btn btn-secondary", disabled: p.page <= 1, onclick: () => go(p.page - 1) }, "← Anterior"),
    h("span", { "aria-live": "polite" }, `Página ${p.page} de ${pages} · ${p.total} en total`),
    h("button", { type: "button", class: "btn btn-secondary", disabled: p.page >= pages, onclick: () => go(p.page + 1) }, "Siguiente →"),
  );
}

/** A link handled by the router (no full page load). */
export function link(href: string, text: Child, className?: string): HTMLAnchorElement {
  return h("a", { href, class: className, "data-link": true }, text);
}

let flash: { tone: "success" | "info"; text: string } | null = null;

/** A message to show on the next page (after a redirect). */
export function setFlash(text: string, tone: "success" | "info" = "success"): void {
  flash = { tone, text };
}

export function takeFlash(): HTMLElement | null {
  const f = flash;
  flash = null;
  return f ? notice(f.tone, f.text) : null;
}

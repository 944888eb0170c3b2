/**
 * Accessible form pieces: every input has a <label>, hints and errors are wired with aria-describedby, the
 * form-level alert is an aria-live region, and API field errors (`details.errors`) land next to their fields.
 */
import { ApiError } from "../lib/api.js";
import { h, uid, type Attrs } from "../lib/dom.js";
import { describeError, describeReason } from "../lib/messages.js";

export interface FieldOptions {
  name: string;
  label: string;
  type?: string;
  value?: string | number | null;
  required?: boolean;
  hint?: string;
  attrs?: Attrs;
  /** Render a <select> with these options instead of an <input>. */
  options?: Array<[string, string]>;
  /** Render a <textarea>. */
  multiline?: boolean;
}

export function field(o: FieldOptions): HTMLElement {
  const id = uid(o.name.replace(/[^a-z0-9]/gi, "-"));
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [o.hint ? hintId : null, errorId].filter(Boolean).join(" ");
  const common: Attrs = { id, name: o.name, required: o.required, "aria-describedby": describedBy, ...o.attrs };
  let control: HTMLElement;
  if (o.options) {
    control = h("select", common, ...o.options.map(([value, text]) => h("option", { value, selected: String(o.value ?? "") === value }, text)));
  } else if (o.multiline) {
    control = h("textarea", { ...common, rows: 3 }, o.value === null || o.value === undefined ? "" : String(o.value));
  } else {
    control = h("input", { ...common, type: o.type ?? "text", value: o.value ?? undefined });
  }
  return h(
    "div",
    { class: "field", "data-field": o.name },
    h("label", { for: id }, o.label, o.required ? h("span", { class: "req", "aria-hidden": "true" }, " *") : null),
    control,
    o.hint ? h("p", { class: "hint", id: hintId }, o.hint) : null,
    h("p", { class: "field-error", id: errorId, "aria-live": "polite" }),
  );
}

/** The form-level message region (errors are announced; success uses role=status). */
export function formAlert(): HTMLElement {
  return h("div", { class: "alert", role: "alert", "aria-live": "assertive", hidden: true });
}

export function showAlert(alert: HTMLElement, message: string, tone: "error" | "success" = "error"): void {
  alert.textContent = message;
  alert.className = `alert alert-${tone}`;
  alert.setAttribute("role", tone === "error" ? "alert" : "status");
  alert.hidden = false;
}

export function clearErrors(form: HTMLElement): void {
  for (const el of form.querySelectorAll(".field-error")) el.textContent = "";
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  const alert = form.querySelector<HTMLElement>(".alert");
  if (alert) alert.hidden = true;
}

/**
 * Shows an error: field errors next to their fields (matching `name`, also `resolucion.numero` style paths; a folded
 * `<details>` holding one is unfolded), the summary in the alert, and focus on the first invalid field.
 */
export function showError(form: HTMLElement, error: unknown): void {
  clearErrors(form);
  let first: HTMLElement | null = null;
  const unplaced: string[] = [];
  if (error instanceof ApiError) {
    for (const fe of error.fieldErrors) {
      const wrapper = findField(form, fe.field);
      const control = wrapper?.querySelector<HTMLElement>("input, select, textarea");
      const slot = wrapper?.querySelector<HTMLElement>(".field-error");
      const text = describeReason(fe.reason, fe.message);
      if (wrapper && control && slot) {
        const folded = wrapper.closest("details");
        if (folded) folded.open = true; // an error in a folded part (a line's description, a guía's transport) unfolds it
        slot.textContent = text;
        control.setAttribute("aria-invalid", "true");
        first ??= control;
      } else unplaced.push(`${fe.field}: ${text}`);
    }
  }
  const alert = form.querySelector<HTMLElement>(".alert");
  if (alert) showAlert(alert, [describeError(error), ...unplaced].join(" "));
  (first ?? alert)?.focus?.();
}

function findField(form: HTMLElement, path: string): HTMLElement | null {
  const candidates = [path, path.replace(/\[\d+\]$/, ""), path.split(".")[0] ?? path];
  for (const name of candidates) {
    const el = form.querySelector<HTMLElement>(`[data-field="${CSS.escape(name)}"]`);
    if (el) return el;
  }
  return null;
}

/** Disables the submit button and marks the form busy while `work` runs. */
export async function busy<T>(form: HTMLFormElement, label: string, work: () => Promise<T>): Promise<T> {
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
  const original = button?.textContent ?? "";
  clearErrors(form);
  form.setAttribute("aria-busy", "true");
  if (button) {
    button.disabled = true;
    button.textContent = label;
  }
  try {
    return await work();
  } finally {
    form.removeAttribute("aria-busy");
    if (button) {
      button.disabled = false;
      button.textContent = original;
    }
  }
}

export function value(form: HTMLFormElement, name: string): string {
  const el = form.elements.namedItem(name);
  return el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement ? el.value.trim() : "";
}

/** The untrimmed value (passwords). */
export function rawValue(form: HTMLFormElement, name: string): string {
  const el = form.elements.namedItem(name);
  return el instanceof HTMLInputElement ? el.value : "";
}

/**
 * The file chosen in the form's file input `name`, or null after telling the user (in the form's alert) to choose
 * one with `missing`.
 */
export function chosenFile(form: HTMLFormElement, name: string, missing: string): File | null {
  const input = form.elements.namedItem(name);
  const file = input instanceof HTMLInputElement ? input.files?.[0] : undefined;
  if (file) return file;
  const alert = form.querySelector<HTMLElement>(".alert");
  if (alert) showAlert(alert, missing);
  return null;
}

/** A labelled checkbox (`.check`), with an optional description under its label. */
export function checkbox(name: string, label: string, description: string | null, checked: boolean): HTMLElement {
  const id = uid(name.replace(/[^a-z0-9]/gi, "-"));
  return h(
    "div",
    { class: "check", "data-field": name },
    h("input", { type: "checkbox", id, name, checked }),
    h("label", { for: id }, label, description ? h("span", { class: "check-desc" }, description) : null),
  );
}

export function isChecked(form: HTMLFormElement, name: string): boolean {
  const el = form.elements.namedItem(name);
  return el instanceof HTMLInputElement && el.checked;
}

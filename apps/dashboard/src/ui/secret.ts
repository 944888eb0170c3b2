/**
 * Shows a secret (API key, webhook secret) exactly once: read-only field, copy button, warning and a
 * "ya la guardé" button. The value lives only in this DOM subtree and the closure; `dispose()` (called when
 * the user confirms or the page is left) removes both. It is never written to storage or the URL.
 */
import { h } from "../lib/dom.js";

export interface SecretView {
  element: HTMLElement;
  dispose(): void;
}

export function secretPanel(title: string, secret: string, warning: string, onDone: () => void): SecretView {
  let value: string | null = secret;
  const input = h("input", { id: "secret-value", type: "text", readonly: true, value, class: "mono", "aria-describedby": "secret-warning", autocomplete: "off", spellcheck: "false" });
  const status = h("span", { class: "copy-status", role: "status", "aria-live": "polite" });
  const copy = h("button", { type: "button", class: "btn btn-secondary", "data-testid": "copy-secret" }, "Copiar");
  copy.addEventListener("click", async () => {
    if (value === null) return;
    status.textContent = (await copyText(value, input)) ? "Copiado al portapapeles." : "No se pudo copiar: selecciona el texto y cópialo.";
  });
  const done = h("button", { type: "button", class: "btn" }, "Ya la guardé");
  const element = h(
    "section",
    { class: "card secret", "aria-labelledby": "secret-title" },
    h("h2", { id: "secret-title" }, title),
    h("p", { class: "notice notice-warn", id: "secret-warning" }, warning),
    h("label", { for: "secret-value", class: "sr-only" }, title),
    h("div", { class: "secret-row" }, input, copy),
    status,
    h("div", { class: "actions" }, done),
  );
  const view: SecretView = {
    element,
    dispose() {
      value = null;
      input.value = "";
      element.remove();
    },
  };
  done.addEventListener("click", () => {
    view.dispose();
    onDone();
  });
  queueMicrotask(() => {
    input.focus();
    input.select();
  });
  return view;
}

/** Copies `text` (the clipboard API, else a selection of `input` and execCommand). */
export async function copyText(text: string, input: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    input.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}

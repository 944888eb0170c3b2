/** Confirmation with the native <dialog> (focus trap, Escape closes, focus returns to the opener). */
import { h } from "../lib/dom.js";

export interface ConfirmOptions {
  title: string;
  body: string;
  confirm: string;
  danger?: boolean;
}

export function confirmDialog(o: ConfirmOptions): Promise<boolean> {
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  return new Promise((resolve) => {
    const cancel = h("button", { type: "button", class: "btn btn-secondary", value: "cancel" }, "Cancelar");
    const ok = h("button", { type: "button", class: o.danger ? "btn btn-danger" : "btn", value: "ok" }, o.confirm);
    const dialog = h(
      "dialog",
      { class: "dialog", "aria-labelledby": "dialog-title", "aria-describedby": "dialog-body" },
      h("h2", { id: "dialog-title" }, o.title),
      h("p", { id: "dialog-body" }, o.body),
      h("div", { class: "actions" }, cancel, ok),
    );
    let answer = false;
    const close = (value: boolean) => {
      answer = value;
      dialog.close();
    };
    cancel.addEventListener("click", () => close(false));
    ok.addEventListener("click", () => close(true));
    dialog.addEventListener("close", () => {
      dialog.remove();
      opener?.focus();
      resolve(answer);
    });
    document.body.appendChild(dialog);
    dialog.showModal();
    cancel.focus();
  });
}

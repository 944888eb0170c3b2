/**
 * A file the API serves, in the page: saved under a name (PDF, XML) or shown as a PDF in a frame. Object URLs go to
 * `urls`, which the page revokes when it is left.
 */
import { describeError } from "../lib/messages.js";
import { h, replace } from "../lib/dom.js";
import { notice } from "./components.js";

/** Saves `load()`'s file as `filename`; a failure is said in `message`. */
export async function saveFile(load: () => Promise<Blob>, filename: string, urls: string[], message: HTMLElement): Promise<void> {
  try {
    const href = URL.createObjectURL(await load());
    urls.push(href);
    const a = h("a", { href, download: filename });
    document.body.appendChild(a);
    a.click();
    a.remove();
  } catch (error) {
    replace(message, notice("error", describeError(error)));
  }
}

/** Shows `load()`'s PDF in `preview`, with a link to open it in another tab; a failure is said there. */
export async function showPdf(load: () => Promise<Blob>, title: string, urls: string[], preview: HTMLElement): Promise<void> {
  replace(preview, h("p", { class: "loading", role: "status" }, "Cargando PDF…"));
  try {
    const href = URL.createObjectURL(new Blob([await load()], { type: "application/pdf" }));
    urls.push(href);
    replace(
      preview,
      h("iframe", { src: href, title: `PDF de ${title}`, class: "pdf-frame", "data-testid": "pdf-frame" }),
      h("p", { class: "small muted" }, "¿No ves el PDF? ", h("a", { href, target: "_blank", rel: "noopener" }, "Ábrelo en otra pestaña"), "."),
    );
  } catch (error) {
    replace(preview, notice("error", describeError(error)));
  }
}

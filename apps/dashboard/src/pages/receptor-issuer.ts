/**
 * Beside the receptor's RUT, what the SII's list of authorised electronic issuers says about it (API.md §14,
 * `GET /issuers/{rut}`): its correo de intercambio and resolution, and a button that fills the razón social when it
 * is still empty (never over what was typed); or that it is not listed. It informs and never blocks: a receptor
 * need not be an electronic issuer, and any error other than "not listed" shows nothing.
 */
import type { Issuer } from "@timbre/sdk";
import { isValidRut, normalizeRut } from "@timbre/core/rut";
import { h, replace } from "../lib/dom.js";
import { day } from "../lib/format.js";
import { value } from "../ui/form.js";

/** The anonymous consumer of boletas and the foreign receiver of exports: not in the list, never asked about. */
const GENERIC_RUTS = ["66666666-6", "55555555-5"];
const RAZON = "receptor.razon_social";

/** The issuer listed with that RUT, null when it is not listed (404); any other failure rejects. */
export type ListedIssuer = (rut: string) => Promise<Issuer | null>;

export interface ReceptorIssuer {
  element: HTMLElement;
  /** Looks the typed RUT up (nothing for an invalid or generic RUT) and shows the answer. */
  check(): Promise<void>;
  /** Hides the fill button once the razón social has text (typed, or filled from elsewhere). */
  sync(): void;
}

export function receptorIssuer(form: HTMLFormElement, lookup: ListedIssuer): ReceptorIssuer {
  const element = h("div", { class: "receptor-issuer", "aria-live": "polite" });
  let fill: HTMLButtonElement | null = null;
  const razonInput = () => form.elements.namedItem(RAZON) as HTMLInputElement | null;
  const sync = () => {
    if (fill && value(form, RAZON) !== "") fill.hidden = true;
  };

  const show = (issuer: Issuer | null) => {
    fill = null;
    if (!issuer) {
      replace(element, h("p", { class: "hint" }, "No figura como emisor electrónico autorizado"));
      return;
    }
    const resolucion = issuer.resolucion ? ` (resolución N° ${issuer.resolucion.numero}, ${day(issuer.resolucion.fecha)})` : "";
    fill = h("button", { type: "button", class: "btn btn-secondary btn-small" }, `Usar razón social «${issuer.razon_social}»`) as HTMLButtonElement;
    fill.addEventListener("click", () => {
      const input = razonInput();
      if (input && input.value.trim() === "") {
        input.value = issuer.razon_social;
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
      if (fill) fill.hidden = true;
    });
    replace(
      element,
      h("p", { class: "hint" }, `Emisor electrónico autorizado${resolucion}`),
      issuer.correo_intercambio ? h("p", { class: "hint" }, `Correo de intercambio: ${issuer.correo_intercambio}`) : null,
      fill,
    );
    sync();
  };

  const check = async () => {
    const typed = value(form, "receptor.rut");
    replace(element);
    element.removeAttribute("aria-busy");
    fill = null;
    if (!isValidRut(typed) || GENERIC_RUTS.includes(normalizeRut(typed))) return;
    element.setAttribute("aria-busy", "true");
    const issuer = await lookup(normalizeRut(typed)).then(
      (found) => ({ found }),
      () => null,
    );
    if (value(form, "receptor.rut") !== typed) return; // the user moved on meanwhile: that check shows its own answer
    element.removeAttribute("aria-busy");
    if (issuer) show(issuer.found);
  };

  return { element, check, sync };
}

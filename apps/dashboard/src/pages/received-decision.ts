/**
 * «Aceptar» and «Reclamar» on a received document (`POST /received/{id}/aceptar` / `/reclamar`, API.md §12). Each
 * form is disabled, with the reason said, where the tipo or the state forbids it (`allowedDecisions`); the SII's
 * refusals come back in Spanish (`describeError`), and a success reloads the page with the new state.
 */
import type { ReceivedDocument } from "@timbre/sdk";
import { api, ApiError } from "../lib/api.js";
import { h, uid } from "../lib/dom.js";
import { allowedDecisions, CLAIM_ACTIONS, REGISTRY_TIPOS } from "../lib/received-words.js";
import { navigate } from "../router.js";
import { card, setFlash } from "../ui/components.js";
import { confirmDialog } from "../ui/dialog.js";
import { busy, checkbox, field, formAlert, isChecked, showError, value } from "../ui/form.js";

/** The Ley 19.983 declaration the receipt of goods carries (EnvioRecibos). */
export const RECIBO_DECLARATION =
  "El acuse de recibo que se declara en este acto, de acuerdo a lo dispuesto en la letra b) del Art. 4, y la letra c) del Art. 5 de la Ley 19.983, acredita que la entrega de mercaderías o servicio(s) prestado(s) ha(n) sido recibido(s).";

export function decisionPanel(d: ReceivedDocument): HTMLElement {
  const allowed = allowedDecisions(d);
  const where = REGISTRY_TIPOS.has(d.tipo) ? "Se registra en el SII y se avisa al emisor." : "Este tipo no está en el registro del SII: se avisa al emisor por correo.";
  const panel = card("Decisión", h("p", { class: "small muted" }, where), acceptForm(d, allowed.accept), claimForm(d, allowed.claim));
  panel.dataset.testid = "decision";
  return panel;
}

function disabledReason(reason: string | null, form: HTMLFormElement): HTMLElement | null {
  if (reason === null) return null;
  for (const el of form.querySelectorAll<HTMLInputElement | HTMLButtonElement | HTMLTextAreaElement>("input, button, textarea")) el.disabled = true;
  const id = uid("why");
  form.querySelector("button[type=submit]")?.setAttribute("aria-describedby", id);
  return h("p", { class: "hint", id, "data-testid": "disabled-reason" }, reason);
}

function acceptForm(d: ReceivedDocument, reason: string | null): HTMLElement {
  const hasAcd = d.eventos.some((e) => e.codigo === "ACD");
  const recinto = field({ name: "recinto", label: "Recinto de recepción", hint: "Dónde se recibieron las mercaderías o servicios. Vacío: la dirección y comuna de la empresa.", attrs: { maxlength: 80, disabled: true } });
  const form = h(
    "form",
    { class: "stack", novalidate: true, "aria-label": "Aceptar el documento" },
    h("h3", null, "Aceptar"),
    formAlert(),
    checkbox("recibo_mercaderias", "Recibo de mercaderías o servicios (ERM)", "Además de aceptar el contenido, declara que recibiste lo facturado.", false),
    h("p", { class: "hint" }, "Con el recibo se envía al emisor esta declaración (Ley 19.983): «", RECIBO_DECLARATION, "» Con ella la factura puede cederse (factoring)."),
    recinto,
    h("div", { class: "actions" }, h("button", { type: "submit", class: "btn" }, hasAcd ? "Otorgar recibo de mercaderías" : "Aceptar")),
  );
  const erm = form.querySelector<HTMLInputElement>("input[name=recibo_mercaderias]");
  const recintoInput = recinto.querySelector("input");
  erm?.addEventListener("change", () => {
    if (recintoInput) recintoInput.disabled = !erm.checked;
  });
  const why = disabledReason(reason, form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const withErm = isChecked(form, "recibo_mercaderias");
    const body: Record<string, unknown> = withErm ? { recibo_mercaderias: true } : {};
    const place = value(form, "recinto");
    if (withErm && place) body.recinto = place;
    const ok = await confirmDialog({
      title: withErm ? "¿Aceptar y otorgar el recibo de mercaderías?" : "¿Aceptar el documento?",
      body: `${withErm ? "Se registra la aceptación del contenido (ACD) y el recibo de mercaderías (ERM), con la declaración de la Ley 19.983." : "Se registra la aceptación del contenido (ACD)."} Una aceptación no se puede deshacer ni cambiar por un reclamo.`,
      confirm: "Aceptar",
    });
    if (!ok) return;
    try {
      await busy(form, "Aceptando…", () => api.post<ReceivedDocument>(`/received/${d.id}/aceptar`, body));
      setFlash(withErm ? "Documento aceptado, con recibo de mercaderías." : "Documento aceptado.");
      navigate(`/recibidos/${d.id}`, true);
    } catch (error) {
      showError(form, error);
    }
  });
  if (why) form.append(why);
  return form;
}

function claimForm(d: ReceivedDocument, reason: string | null): HTMLElement {
  const name = uid("accion");
  const options = CLAIM_ACTIONS.map((a, i) => {
    const id = `${name}-${a.accion}`;
    return h(
      "div",
      { class: "check" },
      h("input", { type: "radio", id, name: "accion", value: a.accion, checked: i === 0 }),
      h("label", { for: id }, a.label, h("span", { class: "check-desc" }, a.description)),
    );
  });
  const form = h(
    "form",
    { class: "stack", novalidate: true, "aria-label": "Reclamar el documento" },
    h("h3", null, "Reclamar"),
    formAlert(),
    h("fieldset", { class: "subfields", "data-field": "accion" }, h("legend", null, "Motivo del reclamo"), ...options, h("p", { class: "field-error", "aria-live": "polite" })),
    field({ name: "motivo", label: "Explicación para el emisor", required: true, multiline: true, hint: "Hasta 200 caracteres; la recibe el emisor con el rechazo.", attrs: { maxlength: 200 } }),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "btn btn-danger" }, "Reclamar")),
  );
  const why = disabledReason(reason, form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const accion = (form.querySelector<HTMLInputElement>("input[name=accion]:checked")?.value ?? "RCD") as "RCD" | "RFP" | "RFT";
    const motivo = value(form, "motivo");
    if (!motivo) return showError(form, localRequired("motivo"));
    const chosen = CLAIM_ACTIONS.find((a) => a.accion === accion);
    const ok = await confirmDialog({
      title: "¿Reclamar el documento?",
      body: `${chosen?.label ?? accion}: «${motivo}». Se registra el reclamo y se avisa al emisor, que deberá anularlo con una nota de crédito. No se puede deshacer.`,
      confirm: "Reclamar",
      danger: true,
    });
    if (!ok) return;
    try {
      await busy(form, "Reclamando…", () => api.post<ReceivedDocument>(`/received/${d.id}/reclamar`, { accion, motivo }));
      setFlash("Documento reclamado.");
      navigate(`/recibidos/${d.id}`, true);
    } catch (error) {
      showError(form, error);
    }
  });
  if (why) form.append(why);
  return form;
}

/** A missing field found before sending, shaped like the API's validation error so it lands on its field. */
function localRequired(fieldName: string): ApiError {
  return new ApiError(422, "VALIDATION_ERROR", "invalid", { errors: [{ field: fieldName, reason: "required", message: "" }] });
}

/**
 * «Envío al receptor» on a document's detail (API.md §11): the delivery of the document by e-mail (`intercambio`:
 * destinatarios, estado, enviado_at, intentos, error), «Reenviar» (`POST /dte/{id}/enviar`, to the receivers or to
 * one address typed here) and the receiver's XML answers (`intercambio.respuestas`). Absent when the server does
 * not report deliveries.
 */
import type { Intercambio } from "@timbre/sdk";
import { api } from "../lib/api.js";
import { h, replace, type Child } from "../lib/dom.js";
import { when } from "../lib/format.js";
import { ANSWER_KINDS, DELIVERY_ESTADOS } from "../lib/received-words.js";
import { badge, card, table } from "../ui/components.js";
import { busy, field, formAlert, showAlert, showError, value } from "../ui/form.js";

export function deliveryPanel(d: { id: string; estado: string; intercambio?: Intercambio | null }): HTMLElement | null {
  if (!d.intercambio) return null;
  const body = h("div", { "aria-live": "polite" }, ...deliveryView(d.intercambio));
  const accepted = d.estado === "ACEPTADO" || d.estado === "ACEPTADO_CON_REPAROS";
  const form = h(
    "form",
    { class: "stack", novalidate: true, "aria-label": "Reenviar el documento" },
    formAlert(),
    field({ name: "email", label: "Enviar a otra dirección (opcional)", type: "email", hint: "Vacío: a los destinatarios del documento.", attrs: { maxlength: 254, autocomplete: "off", disabled: !accepted } }),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "btn btn-secondary", disabled: !accepted }, "Reenviar")),
    accepted ? null : h("p", { class: "hint" }, "Se envía cuando el SII acepte el documento."),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const email = value(form, "email");
    try {
      const next = await busy(form, "Enviando…", () => api.post<Intercambio>(`/dte/${d.id}/enviar`, email ? { email } : {}));
      replace(body, ...deliveryView(next));
      const alert = form.querySelector<HTMLElement>(".alert");
      if (alert) showAlert(alert, email ? `Envío a ${email} en curso.` : "Reenvío en curso.", "success");
    } catch (error) {
      showError(form, error);
    }
  });
  const panel = card("Envío al receptor", body, form);
  panel.dataset.testid = "delivery";
  return panel;
}

function deliveryView(i: Intercambio): Child[] {
  const [label, tone, meaning] = DELIVERY_ESTADOS[i.estado] ?? [i.estado, "neutral", ""];
  return [
    h("p", null, badge(label, tone)),
    meaning ? h("p", { class: "small muted" }, meaning) : null,
    h(
      "dl",
      { class: "facts" },
      h("dt", null, "Destinatarios"),
      h("dd", { class: "wrap" }, i.destinatarios.length > 0 ? i.destinatarios.join(", ") : "—"),
      h("dt", null, "Fecha de envío"),
      h("dd", null, i.enviado_at ? when(i.enviado_at) : "Aún no"),
      h("dt", null, "Intentos"),
      h("dd", null, String(i.intentos)),
      i.error ? [h("dt", null, "Último error"), h("dd", { class: "wrap" }, i.error)] : null,
    ),
    i.respuestas.length === 0
      ? h("p", { class: "small muted" }, "El receptor aún no responde por correo (acuse, resultado o recibo).")
      : table<Intercambio["respuestas"][number]>("Respuestas del receptor", [
          { label: "Respuesta", cell: (r) => ANSWER_KINDS[r.tipo] ?? r.tipo },
          { label: "Código", cell: (r) => h("span", { class: "mono" }, String(r.codigo)) },
          { label: "Glosa", cell: (r) => r.glosa },
          { label: "Fecha", cell: (r) => when(r.at) },
        ], i.respuestas),
  ];
}

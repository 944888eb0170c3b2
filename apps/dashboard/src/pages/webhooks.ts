/**
 * Webhook settings of the selected business: URL, the signing secret shown once (when first set or rotated),
 * rotation, and recent events with their delivery attempts (GET /v1/events), with "Reenviar".
 * The API has no "send a test event" endpoint, so there is no such button: emitting a test document produces
 * real `dte.status_changed` events.
 */
import type { AcceptanceStatus, Business, EventWithDeliveries, WebhookSecret } from "@timbre/sdk";
import { api } from "../lib/api.js";
import { h, replace } from "../lib/dom.js";
import { ACCEPTANCE_ESTADOS, ENV_NAMES, when } from "../lib/format.js";
import { describeError } from "../lib/messages.js";
import type { PageContext } from "../router.js";
import { state } from "../state.js";
import { badge, card, empty, notice, pageHeader, table } from "../ui/components.js";
import { confirmDialog } from "../ui/dialog.js";
import { busy, field, formAlert, showAlert, showError, value } from "../ui/form.js";
import { secretPanel, type SecretView } from "../ui/secret.js";
import { requireBusiness } from "./require-business.js";

const SECRET_WARNING = "Copia este secreto ahora: no se volverá a mostrar. Úsalo para verificar la firma (webhook-signature, esquema Standard Webhooks) de cada entrega.";

export async function webhooksPage(ctx: PageContext): Promise<void> {
  const initial = requireBusiness(ctx, "Webhooks");
  if (!initial) return;
  let b: Business = initial;
  const secretRegion = h("div", null);
  let secret: SecretView | null = null;
  ctx.onLeave(() => secret?.dispose());
  const reveal = (title: string, value: string) => {
    secret?.dispose();
    secret = secretPanel(title, value, SECRET_WARNING, () => (secret = null));
    replace(secretRegion, secret.element);
  };

  const form = h(
    "form",
    { novalidate: true, class: "stack", "aria-label": "URL del webhook" },
    formAlert(),
    field({ name: "webhook_url", label: "URL de destino", type: "url", value: b.webhook_url ?? "", hint: "Recibe un POST JSON por cada evento. En producción debe ser https.", attrs: { placeholder: "https://tu-sistema.cl/webhooks/timbre", autocomplete: "url" } }),
  );
  const rotateButton = h("button", { type: "button", class: "btn btn-secondary" }, "Rotar secreto");
  const removeButton = h("button", { type: "button", class: "btn btn-danger-ghost" }, "Quitar webhook");
  form.append(h("div", { class: "actions" }, h("button", { type: "submit", class: "btn" }, "Guardar URL"), rotateButton, removeButton));
  const settingsMessage = h("div", { "aria-live": "polite" });
  const syncButtons = () => {
    rotateButton.hidden = !b.webhook_url;
    removeButton.hidden = !b.webhook_url;
  };
  syncButtons();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const url = value(form, "webhook_url");
    try {
      const updated = await busy(form, "Guardando…", () => api.put<Business>(`/businesses/${b.id}`, { webhook_url: url || null }));
      if (updated.webhook_secret) reveal("Secreto del webhook", updated.webhook_secret);
      b = { ...updated, webhook_secret: undefined };
      state.upsertBusiness(b);
      syncButtons();
      const alert = form.querySelector<HTMLElement>(".alert");
      if (alert) showAlert(alert, url ? "URL guardada." : "Webhook desactivado.", "success");
    } catch (error) {
      showError(form, error);
    }
  });
  rotateButton.addEventListener("click", async () => {
    const ok = await confirmDialog({
      title: "¿Rotar el secreto del webhook?",
      body: "Se generará un secreto nuevo. Durante 24 horas cada entrega irá firmada con el secreto anterior y con el nuevo, para que actualices tu receptor sin cortes.",
      confirm: "Rotar secreto",
    });
    if (!ok) return;
    try {
      const r = await api.post<WebhookSecret>(`/businesses/${b.id}/webhook-secret`);
      reveal("Nuevo secreto del webhook", r.webhook_secret);
    } catch (error) {
      replace(settingsMessage, notice("error", describeError(error)));
    }
  });
  removeButton.addEventListener("click", async () => {
    const ok = await confirmDialog({ title: "¿Quitar el webhook?", body: "Dejarás de recibir eventos en esta URL.", confirm: "Quitar webhook", danger: true });
    if (!ok) return;
    const input = form.elements.namedItem("webhook_url");
    if (input instanceof HTMLInputElement) input.value = "";
    form.requestSubmit();
  });

  const eventsRegion = h("div", null);
  const loadEvents = async (): Promise<void> => {
    try {
      replace(eventsRegion, await eventsTable(loadEvents));
    } catch (error) {
      replace(eventsRegion, notice("error", `No se pudieron cargar los eventos. ${describeError(error)}`));
    }
  };
  await loadEvents();
  replace(
    ctx.main,
    pageHeader("Webhooks", `Avisos a tu sistema cuando cambia el estado de un documento de ${b.razon_social}.`),
    secretRegion,
    card(
      "Configuración",
      settingsMessage,
      form,
      h("p", { class: "muted small" }, "No hay un botón de evento de prueba: emite un documento de prueba con una clave sk_test_ y recibirás sus cambios de estado (dte.status_changed)."),
    ),
    card(
      `Eventos recientes (${ENV_NAMES[state.environment()].toLowerCase()})`,
      h("div", { class: "actions" }, h("button", { type: "button", class: "btn btn-secondary btn-small", onclick: () => void loadEvents() }, "Actualizar")),
      eventsRegion,
    ),
  );
}

const EVENT_NAMES: Record<string, string> = {
  "dte.status_changed": "Cambio de estado",
  "dte.acceptance_changed": "Aceptación del receptor",
  "numeration.low": "Quedan pocos folios",
  "numeration.expiring": "CAF por vencer",
  "certificate.expiring": "Certificado por vencer",
};

function eventSubject(e: EventWithDeliveries): string {
  if (e.event === "dte.status_changed") return `Tipo ${e.data.tipo} folio ${e.data.folio}: ${e.data.old_status ?? "—"} → ${e.data.new_status}`;
  if (e.event === "dte.acceptance_changed") {
    const name = (s: AcceptanceStatus) => ACCEPTANCE_ESTADOS[s]?.[0] ?? s;
    const codes = e.data.eventos.map((v) => v.codigo).join(", ");
    return `Tipo ${e.data.tipo} folio ${e.data.folio}: ${name(e.data.old_status)} → ${name(e.data.new_status)}${codes ? ` (${codes})` : ""}`;
  }
  return "";
}

async function eventsTable(reload: () => Promise<void>): Promise<HTMLElement> {
  const { data } = await api.list<EventWithDeliveries>("/events", { limit: 20 });
  if (data.length === 0) return empty("Aún no hay eventos en este ambiente.");
  const message = h("div", { "aria-live": "polite" });
  const deliveries = (e: EventWithDeliveries) =>
    e.deliveries.length === 0
      ? h("span", { class: "muted" }, "Sin entregas aún")
      : h(
          "ul",
          { class: "deliveries" },
          ...e.deliveries.map((d) => h("li", null, badge(d.status_code === null ? "sin respuesta" : String(d.status_code), d.ok ? "ok" : "bad"), " ", h("span", { class: "small muted" }, `intento ${d.attempt} · ${when(d.at)}`))),
        );
  return h(
    "div",
    null,
    message,
    table<EventWithDeliveries>("Eventos recientes", [
      { label: "Evento", cell: (e) => h("span", null, EVENT_NAMES[e.event] ?? e.event, h("br"), h("code", { class: "small" }, e.event)) },
      { label: "Detalle", cell: (e) => eventSubject(e) },
      { label: "Fecha", cell: (e) => when(e.created_at) },
      { label: "Entregas", cell: deliveries },
      {
        label: "Acciones",
        className: "cell-actions",
        cell: (e) =>
          h("button", {
            type: "button",
            class: "btn btn-secondary btn-small",
            onclick: async () => {
              try {
                await api.post(`/events/${e.id}/resend`);
                replace(message, notice("success", "Reenvío en cola."));
                setTimeout(() => void reload(), 1500);
              } catch (error) {
                replace(message, notice("error", describeError(error)));
              }
            },
          }, "Reenviar"),
      },
    ], data),
  );
}

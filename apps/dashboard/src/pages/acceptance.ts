/**
 * «Aceptación del receptor» on the detail of a factura (33/34) or a liquidación-factura (43): whether its receiver accepted or claimed it in the
 * SII's registry (Ley 19.983: 8 days from the SII's reception to accept — ACD, ERM — or claim — RCD, RFP, RFT —, then
 * accepted tacitly), the registry's events, when Timbre asked, and «Consultar al SII» (`GET /dte/{id}/aceptacion`,
 * extension; `?refresh=true` asks the SII now). The panel loads on its own: the rest of the page does not wait.
 */
import type { AcceptanceEvent, DteAcceptance, DteDetail } from "@timbre/sdk";
import { api } from "../lib/api.js";
import { h, replace, type Child } from "../lib/dom.js";
import { ACCEPTANCE_ESTADOS, when } from "../lib/format.js";
import { describeError } from "../lib/messages.js";
import { badge, card, loading, notice, table } from "../ui/components.js";

/** The tipos in the registry (boletas and notes are not accepted or claimed). */
const ACCEPTANCE_TIPOS = new Set([33, 34, 43]);
const REFRESH = "Consultar al SII";

export interface AcceptanceOptions {
  /** The page's annulment (credit note), offered when the receiver claimed; absent when it cannot be annulled. */
  annul?: () => void;
}

/** The panel, or null for documents the registry does not cover (other tipos, rejected facturas). */
export function acceptancePanel(d: Pick<DteDetail, "id" | "tipo" | "estado">, options: AcceptanceOptions = {}): HTMLElement | null {
  if (!ACCEPTANCE_TIPOS.has(d.tipo) || d.estado === "RECHAZADO") return null;
  const body = h("div", { "aria-live": "polite" }, loading("Cargando la respuesta del receptor…"));
  const message = h("div", { "aria-live": "polite" });
  const button = h("button", { type: "button", class: "btn btn-secondary btn-small", hidden: true }, REFRESH);
  const panel = card("Aceptación del receptor", body, message, h("div", { class: "actions" }, button));
  panel.dataset.testid = "acceptance";

  // Before the SII accepts the factura there is nothing in the registry to ask about.
  const accepted = d.estado === "ACEPTADO" || d.estado === "ACEPTADO_CON_REPAROS";
  const show = (a: DteAcceptance) => {
    replace(body, ...acceptanceView(a, accepted, options));
    button.hidden = !accepted || a.estado === "NO_APLICA";
  };
  const load = async (refresh: boolean) => {
    button.disabled = true;
    button.textContent = refresh ? "Consultando al SII…" : REFRESH;
    panel.setAttribute("aria-busy", "true");
    replace(message);
    try {
      show(await api.get<DteAcceptance>(`/dte/${d.id}/aceptacion`, refresh ? { refresh: true } : undefined));
    } catch (error) {
      // a failed refresh keeps the last answer shown; a failed first load has nothing else to show
      if (refresh) replace(message, notice("error", describeError(error)));
      else replace(body, notice("error", `No se pudo cargar la respuesta del receptor. ${describeError(error)}`));
    } finally {
      button.disabled = false;
      button.textContent = REFRESH;
      panel.removeAttribute("aria-busy");
    }
  };
  button.addEventListener("click", () => void load(true));
  void load(false);
  return panel;
}

/** Badge, one line saying what it means, the registry's events and when Timbre asked. */
function acceptanceView(a: DteAcceptance, accepted: boolean, options: AcceptanceOptions): Child[] {
  const [label, tone] = ACCEPTANCE_ESTADOS[a.estado] ?? [a.estado, "neutral"];
  const facts = h(
    "dl",
    { class: "facts" },
    a.recibido_sii_at ? [h("dt", null, "Recibida por el SII"), h("dd", null, when(a.recibido_sii_at))] : null,
    h("dt", null, "Consultado"),
    h("dd", null, a.consultado_at ? when(a.consultado_at) : "Aún no"),
    a.proxima_consulta_at ? [h("dt", null, "Próxima consulta"), h("dd", null, `${when(a.proxima_consulta_at)} (automática)`)] : null,
  );
  return [
    h("p", null, badge(label, tone)),
    explanation(a, accepted, options),
    a.eventos.length > 0
      ? table<AcceptanceEvent>("Eventos del registro de aceptación o reclamo", [
          { label: "Código", cell: (e) => h("strong", { class: "mono" }, e.codigo) },
          { label: "Descripción", cell: (e) => e.descripcion },
          { label: "Responsable", cell: (e) => h("span", { class: "mono" }, e.rut_responsable ?? "—") },
          { label: "Fecha", cell: (e) => when(e.fecha) },
        ], a.eventos)
      : a.consultado_at
        ? h("p", { class: "small muted" }, "El registro del SII no tiene eventos de esta factura.")
        : null,
    facts,
  ];
}

function explanation(a: DteAcceptance, accepted: boolean, options: AcceptanceOptions): HTMLElement {
  if (!accepted && (a.estado === "SIN_CONSULTAR" || a.estado === "NO_APLICA")) {
    return h("p", { class: "small muted" }, "Cuando el SII acepte la factura, el receptor tendrá 8 días para aceptarla o reclamarla.");
  }
  switch (a.estado) {
    case "NO_APLICA":
      return h("p", { class: "small muted" }, "El registro de aceptación o reclamo del SII no incluye este documento.");
    case "SIN_CONSULTAR":
      return h("p", { class: "small muted" }, "Aún no se ha consultado al SII si el receptor la aceptó o reclamó", a.proxima_consulta_at ? `; Timbre lo hará solo el ${when(a.proxima_consulta_at)}.` : ".");
    case "SIN_RESPUESTA":
      return h(
        "p",
        { class: "small muted" },
        a.plazo_hasta
          ? `El receptor tiene hasta el ${when(a.plazo_hasta)} para aceptarla o reclamarla; si no la reclama, queda aceptada tácitamente.`
          : "El receptor tiene 8 días desde que el SII recibió la factura para aceptarla o reclamarla; si no la reclama, queda aceptada tácitamente.",
      );
    case "ACEPTADO":
      return h("p", { class: "small muted" }, "El receptor aceptó la factura en el registro del SII.");
    case "ACEPTADO_TACITO":
      return h("p", { class: "small muted" }, "Pasaron 8 días sin reclamos: la factura quedó aceptada tácitamente.");
    case "RECLAMADO":
      return notice(
        "warn",
        "El receptor reclamó esta factura en el SII. Si el reclamo procede, anúlala con una nota de crédito (o corrígela en parte con «Nota de crédito», arriba).",
        options.annul
          ? h("div", { class: "actions" }, h("button", { type: "button", class: "btn btn-danger-ghost btn-small", onclick: () => options.annul?.() }, "Emitir la nota de crédito que la anula"))
          : null,
      );
    default:
      return h("p", { class: "small muted" }, a.estado);
  }
}

/** Folio ranges (CAF) of the selected business and environment: list, CAF upload, sandbox CAF. */
import type { Business, Numeration } from "@timbre/sdk";
import { api, ApiError } from "../lib/api.js";
import { h, replace } from "../lib/dom.js";
import { day, ENV_NAMES, NUMERATION_ESTADOS, number, TIPOS_CAF, tipoName } from "../lib/format.js";
import type { PageContext } from "../router.js";
import { state } from "../state.js";
import { badge, card, empty, notice, pageHeader, table } from "../ui/components.js";
import { describeError } from "../lib/messages.js";
import { busy, chosenFile, field, formAlert, showAlert, showError, value } from "../ui/form.js";
import { requireBusiness } from "./require-business.js";

export async function numerationsPage(ctx: PageContext): Promise<void> {
  const b = requireBusiness(ctx, "Folios (CAF)");
  if (!b) return;
  const env = state.environment();
  const listRegion = h("div", null);
  const reload = async (): Promise<void> => {
    try {
      replace(listRegion, await numerationTable(b));
    } catch (error) {
      replace(listRegion, notice("error", `No se pudieron cargar los folios. ${describeError(error)}`));
    }
  };
  await reload();
  replace(
    ctx.main,
    pageHeader("Folios (CAF)", `Rangos autorizados por el SII para ${b.razon_social} en ${ENV_NAMES[env].toLowerCase()}. Los folios se usan desde el rango activo más antiguo.`),
    card("Rangos", listRegion),
    h("div", { class: "columns" }, h("div", null, uploadCard(b, reload)), env === "test" ? h("div", null, sandboxCard(reload)) : null),
  );
}

async function numerationTable(b: Business): Promise<HTMLElement> {
  const { data } = await api.list<Numeration>(`/businesses/${b.id}/numerations`, { limit: 100 });
  if (data.length === 0) return empty("No hay folios cargados en este ambiente.", h("p", null, "Sube el archivo CAF que descargaste del SII."));
  return table<Numeration>("Rangos de folios", [
    { label: "Tipo", cell: (n) => h("span", null, h("strong", null, String(n.tipo)), " ", tipoName(n.tipo)) },
    { label: "Rango", cell: (n) => h("span", { class: "mono" }, `${n.desde}–${n.hasta}`) },
    { label: "Usados", cell: (n) => number(n.usados), className: "num" },
    { label: "Disponibles", cell: (n) => number(n.disponibles), className: "num" },
    { label: "Siguiente", cell: (n) => (n.estado === "activa" ? number(n.siguiente_folio) : "—"), className: "num" },
    { label: "Autorizado", cell: (n) => day(n.fecha_autorizacion) },
    { label: "Vence", cell: (n) => (n.vence_el ? day(n.vence_el) : "No vence") },
    { label: "Estado", cell: (n) => badge(...(NUMERATION_ESTADOS[n.estado] ?? [n.estado, "neutral"])) },
  ], data);
}

function uploadCard(b: Business, reload: () => Promise<void>): HTMLElement {
  const form = h(
    "form",
    { novalidate: true, class: "stack", "aria-label": "Subir CAF" },
    formAlert(),
    field({ name: "file", label: "Archivo CAF (XML del SII)", type: "file", required: true, attrs: { accept: ".xml,application/xml,text/xml" } }),
    h("button", { type: "submit", class: "btn" }, "Subir CAF"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = chosenFile(form, "file", "Elige el archivo CAF.");
    if (!file) return;
    const alert = form.querySelector<HTMLElement>(".alert");
    const data = new FormData();
    data.set("file", file, file.name);
    try {
      const n = await busy(form, "Verificando…", () => api.upload<Numeration>(`/businesses/${b.id}/numerations`, data));
      form.reset();
      await reload();
      if (alert) showAlert(alert, `CAF cargado: ${tipoName(n.tipo)}, folios ${n.desde} a ${n.hasta}.`, "success");
    } catch (error) {
      showError(form, error);
    }
  });
  return card("Subir CAF", h("p", { class: "muted" }, "El archivo se verifica (firma del SII, RUT de la empresa, rangos sin superposición) antes de guardarse."), form);
}

function sandboxCard(reload: () => Promise<void>): HTMLElement {
  const form = h(
    "form",
    { novalidate: true, class: "stack", "aria-label": "CAF de prueba" },
    formAlert(),
    h(
      "div",
      { class: "grid-2" },
      field({ name: "tipo", label: "Tipo de documento", options: TIPOS_CAF.map((t) => [String(t), `${t} · ${tipoName(t)}`]), value: "33" }),
      field({ name: "cantidad", label: "Cantidad de folios", type: "number", value: 100, required: true, attrs: { min: 1, max: 100000, inputmode: "numeric" } }),
    ),
    h("button", { type: "submit", class: "btn btn-secondary" }, "Emitir CAF de prueba"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const alert = form.querySelector<HTMLElement>(".alert");
    try {
      const n = await busy(form, "Emitiendo…", () =>
        api.post<Numeration>("/sandbox/numerations", { tipo: Number(value(form, "tipo")), cantidad: Number(value(form, "cantidad")) }),
      );
      await reload();
      if (alert) showAlert(alert, `CAF de prueba emitido: ${tipoName(n.tipo)}, folios ${n.desde} a ${n.hasta}.`, "success");
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && error.code === "NOT_FOUND") {
        if (alert) showAlert(alert, "El servidor no está en modo sandbox (SII_MODE=sandbox), así que no puede emitir CAF de prueba. Sube un CAF real descargado del SII.");
        return;
      }
      showError(form, error);
    }
  });
  return card(
    "CAF de prueba (sandbox)",
    h("p", { class: "muted" }, "Con el SII de pruebas local, el servidor puede emitir un CAF firmado por su autoridad de prueba. Sólo sirve en el ambiente de pruebas."),
    form,
  );
}


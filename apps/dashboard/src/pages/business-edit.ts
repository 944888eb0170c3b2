/** Create or edit a business (the RUT is fixed once created); the edit view adds certificate and deletion. */
import type { Business } from "@timbre/sdk";
import { api, ApiError } from "../lib/api.js";
import { h, replace } from "../lib/dom.js";
import { navigate, type PageContext } from "../router.js";
import { state } from "../state.js";
import { card, link, pageHeader, setFlash, takeFlash } from "../ui/components.js";
import { busy, field, formAlert, showAlert, showError, value } from "../ui/form.js";
import { remove } from "./businesses.js";
import { intercambioSection } from "./business-intercambio.js";
import { certificateSection } from "./certificate.js";

function businessForm(b: Business | null): HTMLFormElement {
  const v = (x: string | number | null | undefined) => x ?? "";
  return h(
    "form",
    { novalidate: true, class: "stack", "aria-label": "Datos de la empresa" },
    formAlert(),
    h(
      "div",
      { class: "grid-2" },
      field({ name: "rut", label: "RUT", required: true, value: b?.rut, hint: b ? "El RUT no se puede cambiar." : "Ej.: 76.192.083-9", attrs: { disabled: b !== null, autocomplete: "off" } }),
      field({ name: "razon_social", label: "Razón social", required: true, value: b?.razon_social, attrs: { maxlength: 100, autocomplete: "organization" } }),
    ),
    field({ name: "giro", label: "Giro", required: true, value: b?.giro, attrs: { maxlength: 80 } }),
    field({ name: "acteco", label: "Códigos de actividad económica", required: true, value: b?.acteco.join(", "), hint: "De 1 a 4 códigos de 6 dígitos, separados por comas (ej.: 620200).", attrs: { inputmode: "numeric" } }),
    h(
      "div",
      { class: "grid-2" },
      field({ name: "direccion", label: "Dirección", required: true, value: b?.direccion, attrs: { maxlength: 70, autocomplete: "street-address" } }),
      field({ name: "comuna", label: "Comuna", required: true, value: b?.comuna, attrs: { maxlength: 20 } }),
      field({ name: "ciudad", label: "Ciudad", value: v(b?.ciudad), attrs: { maxlength: 20 } }),
      field({ name: "sucursal_sii", label: "Código de sucursal SII", value: v(b?.sucursal_sii), hint: "El código que el SII asignó a la sucursal (solo dígitos); vacío para la casa matriz.", attrs: { maxlength: 9, inputmode: "numeric" } }),
      field({ name: "unidad_sii", label: "Unidad del SII", value: v(b?.unidad_sii), hint: "Se imprime bajo el recuadro: «S.I.I. - SANTIAGO ORIENTE». Vacío: la comuna.", attrs: { maxlength: 40 } }),
      field({ name: "email", label: "Correo de contacto", type: "email", value: v(b?.email), attrs: { maxlength: 80, autocomplete: "email" } }),
      field({ name: "telefono", label: "Teléfono", type: "tel", value: v(b?.telefono), attrs: { maxlength: 20, autocomplete: "tel" } }),
    ),
    h(
      "fieldset",
      { class: "subfields" },
      h("legend", null, "Resolución del SII (necesaria para emitir en producción)"),
      h(
        "div",
        { class: "grid-2" },
        field({ name: "resolucion.numero", label: "Número de resolución", type: "number", value: v(b?.resolucion?.numero), attrs: { min: 0, inputmode: "numeric" } }),
        field({ name: "resolucion.fecha", label: "Fecha de resolución", type: "date", value: v(b?.resolucion?.fecha) }),
      ),
    ),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "btn" }, b ? "Guardar cambios" : "Registrar empresa"), link("/dashboard/empresas", "Cancelar", "btn btn-secondary")),
  );
}

/** Reads the form; local problems are reported as an ApiError-shaped validation error. */
function readForm(form: HTMLFormElement): Record<string, unknown> {
  const optional = (name: string) => value(form, name) || null;
  const codes = value(form, "acteco").split(/[\s,;]+/).filter(Boolean);
  const acteco = codes.map(Number);
  const errors: Array<{ field: string; reason: string; message: string }> = [];
  if (codes.length === 0) errors.push({ field: "acteco", reason: "required", message: "" });
  else if (acteco.some((n) => !Number.isInteger(n) || n < 100000 || n > 999999)) errors.push({ field: "acteco", reason: "format", message: "Cada código debe tener 6 dígitos." });
  const numero = value(form, "resolucion.numero");
  const fecha = value(form, "resolucion.fecha");
  if ((numero === "") !== (fecha === "")) errors.push({ field: numero === "" ? "resolucion.numero" : "resolucion.fecha", reason: "required", message: "" });
  if (errors.length > 0) throw new ApiError(422, "VALIDATION_ERROR", "invalid", { errors });
  return {
    rut: value(form, "rut"),
    razon_social: value(form, "razon_social"),
    giro: value(form, "giro"),
    acteco,
    direccion: value(form, "direccion"),
    comuna: value(form, "comuna"),
    ciudad: optional("ciudad"),
    sucursal_sii: optional("sucursal_sii"),
    unidad_sii: optional("unidad_sii"),
    email: optional("email"),
    telefono: optional("telefono"),
    resolucion: numero === "" ? null : { numero: Number(numero), fecha },
  };
}

export function newBusinessPage(ctx: PageContext): void {
  const form = businessForm(null);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const body = readForm(form);
      for (const k of Object.keys(body)) if (body[k] === null) delete body[k];
      const created = await busy(form, "Registrando…", () => api.post<Business>("/businesses", body));
      state.upsertBusiness(created, true);
      setFlash("Empresa registrada. Ahora sube su certificado digital.");
      navigate(`/empresas/${created.id}`, true);
    } catch (error) {
      showError(form, error);
    }
  });
  const first = state.businesses().length === 0;
  replace(ctx.main, pageHeader(first ? "Registra tu primera empresa" : "Nueva empresa", "Los datos del emisor que irán en cada documento."), card(null, form));
}

export async function editBusinessPage(ctx: PageContext): Promise<void> {
  const b = await api.get<Business>(`/businesses/${ctx.params.id}`);
  const form = businessForm(b);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const { rut: _rut, ...body } = readForm(form);
      const updated = await busy(form, "Guardando…", () => api.put<Business>(`/businesses/${b.id}`, body));
      state.upsertBusiness(updated);
      const alert = form.querySelector<HTMLElement>(".alert");
      if (alert) showAlert(alert, "Cambios guardados.", "success");
    } catch (error) {
      showError(form, error);
    }
  });
  const message = h("div", { "aria-live": "polite" });
  const danger = card(
    "Eliminar empresa",
    h("p", { class: "muted" }, "Revoca sus claves API. Los documentos emitidos se conservan."),
    h("button", { type: "button", class: "btn btn-danger", onclick: () => void remove(b, message) }, "Eliminar empresa"),
  );
  replace(
    ctx.main,
    pageHeader(b.razon_social, h("span", { class: "mono" }, b.rut), link("/dashboard/empresas", "← Empresas", "btn btn-secondary")),
    takeFlash(),
    message,
    h("div", { class: "columns" }, h("div", null, card("Datos tributarios", form)), h("div", null, certificateSection(b, (u) => state.upsertBusiness(u)), intercambioSection(b, (u) => state.upsertBusiness(u)), danger)),
  );
}

/**
 * The part of the emission form only a guía de despacho (52) has: «Traslado» — why the goods move (IndTraslado,
 * required) and who dispatches them (TipoDespacho) — and «Transporte» (vehicle, carrier, driver, destination), folded
 * away unless the draft has one. The codes are offered in words from core's own tables (`TRANSFER_KINDS`,
 * `DISPATCH_KINDS`). Field names are the API's paths (`traslado.tipo`, `transporte.chofer.rut`), so the server's
 * validation errors land next to their fields.
 */
import { DISPATCH_KINDS, EXPORT_TRANSFER_KINDS, TRANSFER_KINDS } from "@timbre/core/document";
import type { EmitParams, Traslado, Transporte } from "@timbre/sdk";
import { h } from "../lib/dom.js";
import { field, value } from "../ui/form.js";

/** The tipo these fields belong to. */
export const DISPATCH_GUIDE = 52;

export interface DispatchFields {
  /** The «Traslado» fieldset with the folded «Transporte» inside. */
  element: HTMLElement;
  /** `traslado` and `transporte` as typed; what is left empty is not sent (the server says what is required). */
  read(form: HTMLFormElement): Pick<EmitParams, "traslado" | "transporte">;
}

const codes = (labels: Readonly<Record<number, string>>): Array<[string, string]> => Object.entries(labels).map(([code, label]): [string, string] => [code, `${code} · ${label}`]);

export function dispatchFields(draft: { traslado?: Partial<Traslado>; transporte?: Transporte }): DispatchFields {
  const t = draft.traslado ?? {};
  const x = draft.transporte ?? {};
  const text = (name: string, label: string, v: string | undefined, maxlength: number, extra: Record<string, string> = {}) =>
    field({ name, label, value: v, attrs: { maxlength, autocomplete: "off", ...extra } });
  const transport = h(
    "details",
    { class: "line-more", open: Object.keys(x).length > 0 ? true : undefined },
    h("summary", null, "Transporte (opcional)"),
    h(
      "div",
      { class: "grid-2" },
      text("transporte.patente", "Patente", x.patente, 8, { placeholder: "KXTR21" }),
      text("transporte.rut_transportista", "RUT transportista", x.rut_transportista, 16),
      text("transporte.chofer.rut", "RUT del chofer", x.chofer?.rut, 16),
      text("transporte.chofer.nombre", "Nombre del chofer", x.chofer?.nombre, 30),
      text("transporte.direccion_destino", "Dirección de destino", x.direccion_destino, 70),
      text("transporte.comuna_destino", "Comuna de destino", x.comuna_destino, 20),
      text("transporte.ciudad_destino", "Ciudad de destino", x.ciudad_destino, 20),
    ),
    h("p", { class: "hint" }, "Si no se conoce al emitir, puede anotarse en la copia impresa. El destino, si no es la dirección del receptor."),
  );
  const element = h(
    "fieldset",
    { class: "subfields", "data-field": "traslado" },
    h("legend", null, "Traslado"),
    h(
      "div",
      { class: "grid-2" },
      field({ name: "traslado.tipo", label: "Motivo del traslado", required: true, value: t.tipo === undefined ? "" : String(t.tipo), options: [["", "Elige el motivo…"], ...codes(TRANSFER_KINDS).filter(([code]) => !EXPORT_TRANSFER_KINDS.includes(Number(code) as never))] }),
      field({ name: "traslado.despacho", label: "Despacho", value: t.despacho === undefined ? "" : String(t.despacho), options: [["", "—"], ...codes(DISPATCH_KINDS)] }),
    ),
    transport,
  );

  return {
    element,
    read(form) {
      const out: Pick<EmitParams, "traslado" | "transporte"> = {};
      const tipo = value(form, "traslado.tipo");
      const despacho = value(form, "traslado.despacho");
      // a despacho without a motivo is sent as typed: the server answers that the motivo is required
      if (tipo || despacho) out.traslado = { ...(tipo ? { tipo: Number(tipo) } : {}), ...(despacho ? { despacho: Number(despacho) } : {}) } as Traslado;
      const transporte: Record<string, unknown> = {};
      for (const k of ["patente", "rut_transportista", "direccion_destino", "comuna_destino", "ciudad_destino"] as const) {
        const v = value(form, `transporte.${k}`);
        if (v) transporte[k] = v;
      }
      const chofer = { rut: value(form, "transporte.chofer.rut"), nombre: value(form, "transporte.chofer.nombre") };
      // half a driver is sent too, so the server names the half that is missing
      if (chofer.rut || chofer.nombre) transporte.chofer = Object.fromEntries(Object.entries(chofer).filter(([, v]) => v));
      if (Object.keys(transporte).length > 0) out.transporte = transporte as Transporte;
      return out;
    },
  };
}

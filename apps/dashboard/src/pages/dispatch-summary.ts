/**
 * On the detail of a guía de despacho (52): why the goods moved and who dispatched them, in words (core's
 * `transferKindLabel`, `dispatchKindLabel`), and what the document says of the transport — vehicle, carrier, driver,
 * destination — leaving out what it does not say.
 */
import { dispatchKindLabel, transferKindLabel } from "@timbre/core/document";
import type { DteDetail } from "@timbre/sdk";
import { h } from "../lib/dom.js";
import { card } from "../ui/components.js";

/** The «Traslado» card, or null when the document has no traslado (every tipo but 52). */
export function dispatchSummary(d: Pick<DteDetail, "traslado" | "transporte">): HTMLElement | null {
  if (!d.traslado) return null;
  const x = d.transporte ?? {};
  const destino = [x.direccion_destino, x.comuna_destino, x.ciudad_destino].filter(Boolean).join(", ");
  const rows: Array<[string, Node | string] | null> = [
    ["Motivo", transferKindLabel(d.traslado.tipo)],
    d.traslado.despacho ? ["Despacho", dispatchKindLabel(d.traslado.despacho)] : null,
    x.patente ? ["Patente", h("span", { class: "mono" }, x.patente)] : null,
    x.rut_transportista ? ["RUT transportista", h("span", { class: "mono" }, x.rut_transportista)] : null,
    x.chofer ? ["Chofer", h("span", null, x.chofer.nombre, " ", h("span", { class: "mono small muted" }, x.chofer.rut))] : null,
    destino ? ["Destino", destino] : null,
  ];
  return card(
    "Traslado",
    h("dl", { class: "facts", "data-testid": "traslado" }, ...rows.flatMap((r) => (r ? [h("dt", null, r[0]), h("dd", null, r[1])] : []))),
  );
}

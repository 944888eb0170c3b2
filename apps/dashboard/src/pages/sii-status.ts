/** The SII's answer for a document, with a plain-language hint for rejections and remarks. */
import type { DteDetail, DteStatusResult } from "@timbre/sdk";
import { h } from "../lib/dom.js";
import { when } from "../lib/format.js";
import { card, notice } from "../ui/components.js";

const HINTS: Record<string, string> = {
  RECHAZADO: "El SII rechazó el documento: no tiene validez tributaria. Corrige la causa indicada abajo y emite un documento nuevo (el folio rechazado no se reutiliza).",
  ACEPTADO_CON_REPAROS: "El SII aceptó el documento con observaciones: es válido, pero revisa los reparos para corregirlos en los próximos documentos.",
  PENDIENTE: "El documento está firmado y con folio, a la espera de subirse al SII. Se reintenta automáticamente.",
  ENVIADO: "El SII recibió el envío y lo está revisando. El estado se actualiza solo.",
};

export function siiPanel(d: DteDetail, status: DteStatusResult | null): HTMLElement {
  const sii = status?.sii ?? null;
  const hint = HINTS[d.estado];
  const errors = sii?.errores ?? [];
  return card(
    "Respuesta del SII",
    hint ? notice(d.estado === "RECHAZADO" ? "error" : d.estado === "ACEPTADO_CON_REPAROS" ? "warn" : "info", hint) : null,
    sii
      ? h(
          "dl",
          { class: "facts" },
          h("dt", null, "Estado del envío"),
          h("dd", { class: "mono" }, sii.estado_envio ?? "—"),
          h("dt", null, "Glosa"),
          h("dd", null, sii.glosa ?? "—"),
          h("dt", null, "Consultado"),
          h("dd", null, when(sii.consultado_at)),
        )
      : h("p", { class: "muted" }, "Aún no hay respuesta del SII."),
    errors.length > 0
      ? h(
          "ul",
          { class: "sii-errors" },
          ...errors.map((e) => h("li", null, h("strong", { class: "mono" }, e.codigo), " ", e.descripcion, e.ayuda ? h("p", { class: "small" }, "Cómo resolverlo: ", e.ayuda) : null)),
        )
      : null,
  );
}

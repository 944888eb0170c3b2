import type { Dte, DteAcceptance, DteDetail, DteStatusResult } from "@timbre/sdk";
import { formatPesos, renderFields, renderTable } from "./table.js";

export const TIPO_NAMES: Record<number, string> = {
  33: "Factura electrónica",
  34: "Factura exenta",
  39: "Boleta electrónica",
  41: "Boleta exenta",
  52: "Guía de despacho",
  56: "Nota de débito",
  61: "Nota de crédito",
};

export function renderDte(dte: Dte): string {
  return renderFields({
    id: dte.id,
    documento: `${TIPO_NAMES[dte.tipo] ?? `Tipo ${dte.tipo}`} N° ${dte.folio}`,
    fecha: dte.fecha,
    receptor: `${dte.receptor.razon_social} (${dte.receptor.rut})`,
    neto: formatPesos(dte.monto_neto),
    exento: formatPesos(dte.monto_exento),
    iva: formatPesos(dte.monto_iva),
    total: formatPesos(dte.monto_total),
    estado: dte.estado,
    track_id: dte.track_id ?? "—",
    environment: dte.environment,
  });
}

/** A guía's traslado and transport, by their SII codes (the API reference and `timbre dte emit --help` name them). */
function guideLines(dte: DteDetail): string[] {
  if (!dte.traslado) return [];
  const t = dte.transporte;
  const chofer = t?.chofer ? `${t.chofer.nombre} (${t.chofer.rut})` : undefined;
  const destino = [t?.direccion_destino, t?.comuna_destino, t?.ciudad_destino].filter(Boolean).join(", ");
  const fields: Array<[string, string | undefined]> = [
    ["patente", t?.patente],
    ["transportista", t?.rut_transportista],
    ["chofer", chofer],
    ["destino", destino || undefined],
  ];
  return [
    `Traslado: tipo ${dte.traslado.tipo}${dte.traslado.despacho ? `, despacho ${dte.traslado.despacho}` : ""}`,
    ...(t ? ["Transporte:", ...fields.filter(([, v]) => v).map(([k, v]) => `  ${k}: ${v}`)] : []),
  ];
}

export function renderDteDetail(dte: DteDetail): string {
  const items = renderTable(dte.items ?? [], [
    { header: "ITEM", get: (i) => i.nombre },
    { header: "CANT", get: (i) => i.cantidad, align: "right" },
    { header: "PRECIO", get: (i) => i.precio, align: "right" },
    { header: "MONTO", get: (i) => formatPesos(i.monto), align: "right" },
  ]);
  const taxes = (dte.impuestos_adicionales ?? []).map((t) => `  ${t.codigo} (${t.tasa} %) sobre ${formatPesos(t.base)}: ${formatPesos(t.monto)}`);
  const history = (dte.historial ?? []).map((h) => `  ${h.at}  ${h.estado}${h.detalle ? `  ${h.detalle}` : ""}`);
  const r = dte.receptor;
  const address = [r.direccion, r.comuna, r.ciudad].filter(Boolean).join(", ");
  const receptor = [r.giro ? `  giro: ${r.giro}` : null, address ? `  dirección: ${address}` : null].filter((line): line is string => line !== null);
  const transport = guideLines(dte);
  const references = (dte.referencias ?? []).map((ref) => `  ${TIPO_NAMES[Number(ref.tipo_doc)] ?? `Tipo ${ref.tipo_doc}`} N° ${ref.folio} del ${ref.fecha}${ref.razon ? `: ${ref.razon}` : ""}`);
  return [
    renderDte(dte),
    ...(receptor.length ? ["Receptor:", ...receptor] : []),
    ...(references.length ? ["Referencias:", ...references] : []),
    ...(taxes.length ? ["Impuestos adicionales:", ...taxes] : []),
    ...transport,
    "",
    items,
    "",
    "Historial:",
    ...history,
  ].join("\n");
}

export function renderStatus(status: DteStatusResult): string {
  const errors = (status.sii?.errores ?? []).map((e) => `  ${e.codigo}: ${e.descripcion}${e.ayuda ? ` (${e.ayuda})` : ""}`);
  return [
    renderFields({
      id: status.id,
      estado: status.estado,
      track_id: status.track_id ?? "—",
      sii: status.sii ? `${status.sii.estado_envio ?? "?"} ${status.sii.glosa ?? ""}`.trim() : "(not consulted yet)",
      consultado_at: status.sii?.consultado_at ?? "—",
    }),
    ...(errors.length ? ["Errores SII:", ...errors] : []),
  ].join("\n");
}

/** `dte aceptacion`: the receiver's answer in the SII's registry, its 8-day window and its events. */
export function renderAcceptance(answer: DteAcceptance): string {
  const events = answer.eventos.map((e) => `  ${e.codigo} ${e.fecha ?? "?"} ${e.rut_responsable ?? ""} ${e.descripcion}`.replace(/\s+$/, ""));
  return [
    renderFields({
      id: answer.id,
      documento: `${answer.tipo}/${answer.folio}`,
      estado: answer.estado,
      recibido_sii_at: answer.recibido_sii_at ?? "—",
      plazo_hasta: answer.plazo_hasta ?? "—",
      consultado_at: answer.consultado_at ?? "—",
      proxima_consulta_at: answer.proxima_consulta_at ?? "—",
    }),
    ...(events.length ? ["Eventos:", ...events] : []),
  ].join("\n");
}

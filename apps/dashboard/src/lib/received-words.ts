/**
 * The words of received documents (API.md §12): states, the deadline badge, each verification failure, the claim
 * actions, what each tipo allows, and why an inbox message was not imported. Pure, so it is tested without a browser.
 */
import type { ReceivedDocument } from "@timbre/sdk";
import { daysUntil, when } from "./format.js";

export type ReceivedState = ReceivedDocument["estado"];

/** Label and badge tone of a received document's state. */
export const RECEIVED_ESTADOS: Record<ReceivedState, [string, string]> = {
  SIN_RESPUESTA: ["Sin respuesta", "info"],
  ACEPTADO: ["Aceptado", "ok"],
  RECLAMADO: ["Reclamado", "bad"],
  ACEPTADO_TACITO: ["Aceptado tácitamente", "ok"],
  NO_APLICA: ["No aplica", "neutral"],
};

/** Names of the tipos a supplier may send (the ones Timbre emits plus 43, 46 and exports). */
export const RECEIVED_TIPOS: Record<number, string> = {
  33: "Factura electrónica",
  34: "Factura exenta electrónica",
  43: "Liquidación-factura electrónica",
  46: "Factura de compra electrónica",
  52: "Guía de despacho electrónica",
  56: "Nota de débito electrónica",
  61: "Nota de crédito electrónica",
  110: "Factura de exportación electrónica",
  111: "Nota de débito de exportación electrónica",
  112: "Nota de crédito de exportación electrónica",
};

export const receivedTipoName = (tipo: number): string => RECEIVED_TIPOS[tipo] ?? `Tipo ${tipo}`;

/** The tipos in the SII's acceptance registry (8 days, Ley 19.983). */
export const REGISTRY_TIPOS: ReadonlySet<number> = new Set([33, 34, 43]);
/** Exports: no registry and no XML answer, so no decision at all. */
export const UNANSWERABLE_TIPOS: ReadonlySet<number> = new Set([110, 111, 112]);

/** Whether every check of `verificacion` passed. */
export function isVerified(d: Pick<ReceivedDocument, "verificacion">): boolean {
  const v = d.verificacion as Record<string, string | undefined>;
  return ["firma", "timbre", "caf", "receptor", "emisor"].every((k) => v[k] === undefined || v[k] === "ok");
}

/** One sentence per check that failed, in Spanish (empty when the document verified). */
export function verificationFailures(v: ReceivedDocument["verificacion"]): string[] {
  const out: string[] = [];
  if (v.firma !== "ok") out.push(VERIFICATION_WORDS[`firma:${v.firma}`] ?? `Firma: ${v.firma}.`);
  if (v.timbre !== "ok") out.push(VERIFICATION_WORDS[`timbre:${v.timbre}`] ?? `Timbre: ${v.timbre}.`);
  if (v.caf !== "ok") out.push(VERIFICATION_WORDS[`caf:${v.caf}`] ?? `CAF: ${v.caf}.`);
  if (v.receptor !== "ok") out.push(VERIFICATION_WORDS[`receptor:${v.receptor}`] ?? `Receptor: ${v.receptor}.`);
  if (v.emisor !== undefined && v.emisor !== "ok") out.push(VERIFICATION_WORDS[`emisor:${v.emisor}`] ?? `Emisor: ${v.emisor}.`);
  return out;
}

/** Every failure core's verifier names (`check:value`). */
export const VERIFICATION_WORDS: Record<string, string> = {
  "firma:invalida": "La firma electrónica del documento no es válida: pudo ser modificado después de firmarse.",
  "timbre:invalido": "El timbre electrónico (TED) no corresponde a los datos del documento.",
  "caf:autoridad_desconocida": "El CAF del documento no fue autorizado por el SII de este ambiente.",
  "caf:firma_invalida": "La firma del SII en el CAF del documento no es válida.",
  "caf:ilegible": "El CAF del documento no se pudo leer.",
  "receptor:otro_receptor": "El documento está dirigido a otro RUT, no a esta empresa.",
  "emisor:distinto_de_caratula": "El RUT emisor del documento no coincide con el del sobre que lo trajo.",
};

/** How the signature matched, when it did. */
export const SIGNATURE_VARIANTS: Record<string, string> = {
  separado: "verificada como documento independiente",
  en_contexto: "verificada dentro del sobre",
};

/** The claim actions of the registry, with what each one says. */
export const CLAIM_ACTIONS: Array<{ accion: "RCD" | "RFP" | "RFT"; label: string; description: string }> = [
  { accion: "RCD", label: "Reclamo al contenido del documento (RCD)", description: "El documento tiene errores: montos, precios, datos o servicios que no corresponden." },
  { accion: "RFP", label: "Reclamo por falta parcial de mercaderías (RFP)", description: "Llegó solo una parte de lo facturado." },
  { accion: "RFT", label: "Reclamo por falta total de mercaderías (RFT)", description: "No llegó nada de lo facturado." },
];

/** What the page may offer: each decision with the reason it is disabled (null when allowed). */
export interface Decisions {
  accept: string | null;
  claim: string | null;
}

/** API.md §12's table and the document's state: what can be decided, and why not. */
export function allowedDecisions(d: Pick<ReceivedDocument, "tipo" | "estado" | "verificacion" | "superseded_by" | "eventos">): Decisions {
  if (UNANSWERABLE_TIPOS.has(d.tipo)) {
    const why = "Los documentos de exportación (110, 111 y 112) no se aceptan ni se reclaman: no están en el registro del SII ni admiten respuesta.";
    return { accept: why, claim: why };
  }
  if (d.superseded_by) {
    const why = "Llegó una copia verificada de este documento: decide sobre esa.";
    return { accept: why, claim: why };
  }
  if (d.estado === "ACEPTADO_TACITO") {
    const why = "Pasaron los 8 días sin reclamo: el documento quedó aceptado tácitamente.";
    return { accept: why, claim: why };
  }
  if (d.estado === "RECLAMADO") {
    const why = "Ya fue reclamado: la decisión no se puede cambiar.";
    return { accept: why, claim: why };
  }
  const verified = isVerified(d);
  const hasErm = d.eventos.some((e) => e.codigo === "ERM");
  const accept = !verified
    ? "No pasó la verificación: un documento así solo se puede reclamar."
    : d.estado === "ACEPTADO" && hasErm
      ? "Ya fue aceptado, con recibo de mercaderías."
      : null;
  const claim = d.estado === "ACEPTADO" ? "Ya fue aceptado: ya no se puede reclamar." : null;
  return { accept, claim };
}

/** The deadline badge of the list and the detail: label and tone. */
export function deadlineBadge(d: Pick<ReceivedDocument, "estado" | "plazo_hasta" | "tipo">, now: Date = new Date()): [string, string] {
  switch (d.estado) {
    case "ACEPTADO":
      return ["Aceptado", "ok"];
    case "RECLAMADO":
      return ["Reclamado", "bad"];
    case "ACEPTADO_TACITO":
      return ["Aceptado tácitamente", "ok"];
    case "NO_APLICA":
      return ["Sin plazo", "neutral"];
  }
  if (!d.plazo_hasta) return REGISTRY_TIPOS.has(d.tipo) ? ["El SII aún no lo recibe", "neutral"] : ["Sin plazo", "neutral"];
  const ms = new Date(d.plazo_hasta).getTime() - now.getTime();
  if (ms <= 0) return ["Vencido", "bad"];
  const days = daysUntil(d.plazo_hasta, now);
  if (days < 1) return ["Vence hoy", "bad"];
  if (days === 1) return ["Vence en 1 día", "warn"];
  return [`Vence en ${days} días`, days <= 2 ? "warn" : "info"];
}

/** One line under the badge of the detail: what the deadline means. */
export function deadlineSentence(d: Pick<ReceivedDocument, "estado" | "plazo_hasta" | "tipo">, now: Date = new Date()): string {
  if (d.estado === "ACEPTADO_TACITO") return "Pasaron 8 días desde que el SII lo recibió sin reclamo: la ley lo da por aceptado.";
  if (d.estado === "NO_APLICA" || !REGISTRY_TIPOS.has(d.tipo)) return "Este tipo no está en el registro de aceptación o reclamo del SII: no tiene plazo legal, pero puedes responder al emisor.";
  if (!d.plazo_hasta) return "Cuando el SII registre su recepción, tendrás 8 días para aceptarlo o reclamarlo.";
  if (d.estado !== "SIN_RESPUESTA") return `Tenía plazo hasta el ${when(d.plazo_hasta)} para responder.`;
  return new Date(d.plazo_hasta).getTime() <= now.getTime()
    ? `El plazo venció el ${when(d.plazo_hasta)}: si no se reclamó, queda aceptado tácitamente.`
    : `Tienes hasta el ${when(d.plazo_hasta)} para aceptarlo o reclamarlo; si no lo reclamas, queda aceptado tácitamente.`;
}

/** Why an inbox message was not imported (`ENVELOPE_INVALID` reasons and the mail door's own). */
export const INBOX_REASONS: Record<string, string> = {
  format: "No es un XML válido o no tiene la forma de un EnvioDTE.",
  schema: "El sobre no cumple el esquema del SII (EnvioDTE).",
  signature: "La firma del sobre no es válida.",
  not_addressed: "El sobre está dirigido a otro RUT, no a esta empresa.",
  unsupported: "El adjunto no es un documento tributario que Timbre reciba.",
  not_processed: "Es una respuesta (acuse, resultado o recibo) que Timbre aún no procesa.",
  no_xml: "El correo no trae ningún adjunto XML.",
  too_many_attachments: "El correo trae demasiados adjuntos.",
  too_large: "El adjunto XML supera el tamaño máximo.",
  internal: "Error interno al importarlo.",
};

export const inboxReason = (reason: string): string => INBOX_REASONS[reason] ?? `No se pudo importar (${reason}).`;

/** The delivery state of an own document to its receiver (API.md §11). */
export const DELIVERY_ESTADOS: Record<string, [string, string, string]> = {
  PENDIENTE: ["Pendiente", "info", "Se enviará cuando el SII acepte el documento, o se está enviando."],
  ENVIADO: ["Enviado", "ok", "El receptor recibió el documento por correo."],
  FALLIDO: ["Fallido", "bad", "El envío falló; puedes reenviarlo."],
  SIN_DESTINATARIO: ["Sin destinatario", "warn", "El receptor no tiene correo de intercambio en el SII ni correo en el documento. Reenvíalo a una dirección."],
  SIN_CORREO: ["Sin correo", "warn", "Este servidor no envía correos a esta dirección (sin SMTP o fuera de los dominios permitidos en pruebas)."],
  NO_APLICA: ["No aplica", "neutral", "A este receptor no se le envía el documento (consumidor final o el mismo emisor)."],
};

/** The receiver's XML answers to an own document. */
export const ANSWER_KINDS: Record<string, string> = {
  recepcion: "Acuse de recibo",
  resultado: "Resultado de la revisión",
  recibo: "Recibo de mercaderías",
};

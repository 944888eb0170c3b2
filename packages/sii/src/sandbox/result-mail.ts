/**
 * The SII's result mail (BRIEF-intercambio §5): once an uploaded `EnvioDTE` is reviewed, the SII mails its issuer's
 * *mail de contacto SII* a `RESULTADO_ENVIO` (`RespSII_v10.xsd`, no namespace) naming the envelope's state and every
 * rejected or remarked document with its codes — for facturas the only place the per-document code reaches the issuer.
 *
 * The sandbox builds that XML here and hands it, at the moment the envelope reaches its final state, to the
 * `resultMail.send` the sandbox was created with: who the issuer's contact address is and how mail travels are the
 * embedder's (the server's in-process sandbox sends it through SMTP to the business's Timbre intercambio address).
 * Boleta envelopes (REST channel) get no mail: their per-document detail comes by REST (`detalle_rep_rech`).
 */
import { envelopeStateInfo } from "../codes/envelope-states.js";
import type { EnvelopeRecord } from "./envelopes.js";

/** One result mail, ready to send. */
export interface SiiResultMail {
  /** The issuer the mail is for (normalised RUT). */
  rutEmisor: string;
  trackId: string;
  /** `<Ambiente> - Resultado de Revision Envio <TRACKID> - <RUT>`, as the SII writes it. */
  subject: string;
  /** Attachment file name. */
  filename: string;
  /** The `RESULTADO_ENVIO` document (ISO-8859-1 declared; its characters are all Latin-1). */
  xml: string;
}

/** `resultMail` option of `createSandbox`: called once per reviewed `EnvioDTE` envelope; its failures are ignored (a lost mail). */
export interface ResultMailOption {
  send(mail: SiiResultMail): void | Promise<void>;
}

/** The document types `RespSII_v10.xsd` (`DTEType`) can name; other types are left out of the mail. */
const MAILABLE_TIPOS: ReadonlySet<number> = new Set([33, 34, 46, 52, 56, 61]);

const escapeXml = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Latin-1 only: the declaration says ISO-8859-1, like the SII's files. */
// eslint-disable-next-line no-control-regex
const latin1 = (s: string): string => s.replace(/[^\u0000-\u00ff]/g, "?");

const el = (name: string, value: string | number): string => `<${name}>${escapeXml(latin1(String(value)))}</${name}>`;

/** `DD/MM/YYYY HH:MM:SS` in Chile's time, as the mail's `TMSTRECEPCION`. */
function chileTimestamp(epochMs: number): string {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: "America/Santiago", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false,
  }).formatToParts(new Date(epochMs));
  const p = (type: string) => parts.find((x) => x.type === type)?.value ?? "00";
  return `${p("day")}/${p("month")}/${p("year")} ${p("hour") === "24" ? "00" : p("hour")}:${p("minute")}:${p("second")}`;
}

/** `CODE - glosa`, the SII's way of writing a state. */
const stateText = (code: string, fallback: string): string => `${code} - ${envelopeStateInfo(code)?.descripcion ?? fallback}`;

/**
 * The `RESULTADO_ENVIO` of a reviewed envelope: identification and state, counts per type, the envelope-level errors
 * (`ERRORENVIO`, for RCT/RFR/RSC/RPT) and a `REVISIONDTE` for each rejected (`RCH`) or remarked (`RLV`) document with
 * one `DETALLE` `(CODE) glosa` per error. Valid against `RespSII_v10.xsd`.
 *
 * @example
 * buildResultadoEnvio(sandbox.envelope(trackId)!); // "<?xml …?><RESULTADO_ENVIO><IDENTIFICACION>…"
 */
export function buildResultadoEnvio(record: EnvelopeRecord): string {
  const documents = record.documents.filter((d) => MAILABLE_TIPOS.has(d.tipo));
  const estado = record.final === "EPR" ? stateText("EPR", "Envio Procesado") : stateText(record.final, "Envio Rechazado");
  const identificacion =
    `<IDENTIFICACION>${el("RUTEMISOR", record.rutEmisor.toUpperCase())}${el("RUTENVIA", record.rutEnvia.toUpperCase())}` +
    `${el("TRACKID", Number(record.trackId))}${el("TMSTRECEPCION", chileTimestamp(record.receivedAt))}${el("ESTADO", estado)}</IDENTIFICACION>`;
  const subtotals = new Map<number, { informado: number; rechazo: number; reparo: number; acepta: number }>();
  for (const d of documents) {
    const s = subtotals.get(d.tipo) ?? { informado: 0, rechazo: 0, reparo: 0, acepta: 0 };
    s.informado += 1;
    if (d.estado === "RCH") s.rechazo += 1;
    else {
      s.acepta += 1;
      if (d.estado === "RLV") s.reparo += 1;
    }
    subtotals.set(d.tipo, s);
  }
  const estadistica = subtotals.size === 0 ? "" : `<ESTADISTICA>${[...subtotals].slice(0, 5).map(([tipo, s]) =>
    `<SUBTOTAL>${el("TIPODOC", tipo)}${el("INFORMADO", s.informado)}${el("RECHAZO", s.rechazo)}${el("REPARO", s.reparo)}${el("ACEPTA", s.acepta)}</SUBTOTAL>`).join("")}</ESTADISTICA>`;
  const errorEnvio = record.envelopeErrors.length === 0 ? "" : `<ERRORENVIO>${record.envelopeErrors.map((e) =>
    el("DETERRENVIO", /^[A-Z]{2,4}-\d-\d+$/.test(e.codigo) ? `(${e.codigo}) ${e.descripcion}` : e.descripcion)).join("")}</ERRORENVIO>`;
  const reviewed = documents.filter((d) => d.estado !== "DOK");
  const revision = reviewed.length === 0 ? "" : `<REVISIONENVIO>${reviewed.map((d) => {
    const details = d.errors.length > 0 ? d.errors.map((e) => el("DETALLE", `(${e.codigo}) ${e.descripcion}`)).join("") : el("DETALLE", stateText(d.estado, "Revisado"));
    return `<REVISIONDTE>${el("FOLIO", d.folio)}${el("TIPODTE", d.tipo)}${el("ESTADO", stateText(d.estado, "Revisado"))}${details}</REVISIONDTE>`;
  }).join("")}</REVISIONENVIO>`;
  return `<?xml version="1.0" encoding="ISO-8859-1"?>\n<RESULTADO_ENVIO>${identificacion}${estadistica}${errorEnvio}${revision}</RESULTADO_ENVIO>\n`;
}

/** The mail for a reviewed envelope (`environment` gives the subject's prefix), or null for a boleta envelope. */
export function resultMailOf(record: EnvelopeRecord, environment: "certificacion" | "produccion"): SiiResultMail | null {
  if (record.kind !== "EnvioDTE" || record.channel !== "dteupload") return null;
  const rut = record.rutEmisor.toUpperCase();
  const prefix = environment === "produccion" ? "Produccion" : "Certificacion";
  return {
    rutEmisor: rut,
    trackId: record.trackId,
    subject: `${prefix} - Resultado de Revision Envio ${Number(record.trackId)} - ${rut}`,
    filename: `RESULTADO_ENVIO_${Number(record.trackId)}.xml`,
    xml: buildResultadoEnvio(record),
  };
}

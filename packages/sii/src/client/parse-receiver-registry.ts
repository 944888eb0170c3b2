/**
 * Readers of the registry of acceptances and claims' answers (manual v1.2). They match elements by local name, so
 * any prefix (or none) works, and they are tolerant of the date formats a Java service may write.
 */
import { RECEIVER_EVENT_CODES, receiverRegistryDescription, type ReceiverEventCode } from "../codes/receiver-registry.js";
import { chileLocalTime } from "../protocol/chile-time.js";
import { elementText, findElements, firstElement, looksLikeHtml, unescapeXml } from "../protocol/xml-text.js";
import { SiiTransientError } from "./errors.js";
import type { ReceiverEvent, ReceiverEvents, ReceiverRegistryAnswer } from "./receiver-registry.js";

/** What {@link readRegistryReturn} needs of an HTTP answer. */
export interface RegistryHttpAnswer {
  status: number;
  contentType: string | null;
  text: string;
}

const excerpt = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 200);

/**
 * The raw (still escaped) content of the answer's `<return>`. Errors, all {@link SiiTransientError}:
 * - a SOAP Fault → `token`. The manual does not say how the service refuses a missing, expired or invalid token;
 *   a JAX-WS service does it before the operation runs, with a Fault. A Fault is never a verdict on the document and
 *   a fresh token is the one cure within our reach, so the client re-authenticates once (then the error surfaces);
 * - an HTML page (HTTP 200, the SII's gateway when not authenticated or overloaded) → `html`, re-authenticating
 *   once for the same reason;
 * - another 5xx → `http`, as every other call; no `<return>` → `malformed` (`http` for a 4xx).
 *
 * @example
 * readRegistryReturn({ status: 200, contentType: "text/xml", text }, "listReceiverEvents"); // "<codResp>16</codResp>…"
 */
export function readRegistryReturn(answer: RegistryHttpAnswer, operation: string): string {
  const fault = firstElement(answer.text, "Fault");
  if (fault !== undefined) {
    const reason = elementText(fault.inner, "faultstring") ?? "";
    throw new SiiTransientError(operation, "token", `SII answered a SOAP Fault to ${operation}: ${excerpt(reason)}`, { httpStatus: answer.status });
  }
  if (answer.status >= 500) {
    throw new SiiTransientError(operation, "http", `SII answered HTTP ${answer.status} to ${operation}`, { httpStatus: answer.status });
  }
  if (looksLikeHtml(answer.text, answer.contentType)) {
    throw new SiiTransientError(operation, "html", `SII answered an HTML page to ${operation}`, { httpStatus: answer.status });
  }
  const found = firstElement(answer.text, "return");
  if (found === undefined) {
    throw new SiiTransientError(operation, answer.status >= 400 ? "http" : "malformed",
      `SII answer to ${operation} has no return (HTTP ${answer.status})`, { httpStatus: answer.status });
  }
  return found.inner;
}

/**
 * `codResp` and `descResp` of a `<return>` (the table's text when `descResp` is empty). `-1` ("Error Interno…
 * reintentar") throws a transient `estado` error with status `-1`; a missing or non-numeric `codResp` a `malformed`
 * one. Every other code is data.
 *
 * @example
 * parseRegistryAnswer("<codResp>0</codResp><descResp>Acción Completada OK</descResp>", "registerReceiverAction"); // { codigo: 0, … }
 */
export function parseRegistryAnswer(returnXml: string, operation: string): ReceiverRegistryAnswer {
  const raw = elementText(returnXml, "codResp");
  if (raw === null || !/^-?\d+$/.test(raw)) {
    throw new SiiTransientError(operation, "malformed", `SII answer to ${operation} without a numeric codResp`);
  }
  const codigo = Number(raw);
  const descripcion = elementText(returnXml, "descResp") || receiverRegistryDescription(codigo);
  if (codigo === -1) {
    throw new SiiTransientError(operation, "estado", `SII registry internal error (codResp -1): ${excerpt(descripcion)}`, { status: "-1" });
  }
  return { codigo, descripcion };
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?$/;
const DAY_FIRST = /^(\d{2})[-/](\d{2})[-/](\d{4})[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * A date-time of the registry as `YYYY-MM-DDTHH:MM:SS` in Chile's local time: `YYYY-MM-DD HH:MM:SS`,
 * `DD-MM-YYYY HH:MM:SS` (local, as written; fractions dropped) or ISO with an offset (converted). Anything else is
 * returned as written (trimmed).
 *
 * @example
 * normalizeSiiDateTime("20-11-2026 10:11:12"); // "2026-11-20T10:11:12"
 */
export function normalizeSiiDateTime(text: string): string {
  const t = text.trim();
  const local = LOCAL.exec(t);
  if (local) return `${local[1]}-${local[2]}-${local[3]}T${local[4]}:${local[5]}:${local[6] ?? "00"}`;
  const dayFirst = DAY_FIRST.exec(t);
  if (dayFirst) return `${dayFirst[3]}-${dayFirst[2]}-${dayFirst[1]}T${dayFirst[4]}:${dayFirst[5]}:${dayFirst[6] ?? "00"}`;
  if (WITH_OFFSET.test(t)) {
    const instant = new Date(t.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
    if (!Number.isNaN(instant.getTime())) return chileLocalTime(instant);
  }
  return t;
}

function readEvent(xml: string): ReceiverEvent {
  const codigo = (elementText(xml, "codEvento") ?? "").toUpperCase();
  const rut = elementText(xml, "rutResponsable") ?? "";
  const dv = (elementText(xml, "dvResponsable") ?? "").toUpperCase();
  const fecha = elementText(xml, "fechaEvento") ?? "";
  return {
    codigo,
    descripcion: elementText(xml, "descEvento") || (RECEIVER_EVENT_CODES[codigo as ReceiverEventCode] ?? ""),
    rutResponsable: rut === "" ? null : rut.includes("-") || dv === "" ? rut : `${rut}-${dv}`,
    fecha: fecha === "" ? null : normalizeSiiDateTime(fecha),
  };
}

/**
 * listarEventosHistDoc's `<return>`: the code (15 with events, 16 none, 18 not received…) and every
 * `listaEventosDoc`, in the order given.
 *
 * @example
 * parseReceiverEvents(returnXml, "listReceiverEvents").eventos[0]?.codigo; // "ACD"
 */
export function parseReceiverEvents(returnXml: string, operation: string): ReceiverEvents {
  const answer = parseRegistryAnswer(returnXml, operation);
  return { ...answer, eventos: findElements(returnXml, "listaEventosDoc").map((e) => readEvent(e.inner)) };
}

/**
 * consultarFechaRecepcionSii's `<return>`: the date (`DD-MM-YYYY HH:MM:SS`, Chile) as `YYYY-MM-DDTHH:MM:SS`, or
 * `null` when empty (not received). Should the service answer a `codResp` instead, `-1` throws as elsewhere and
 * any other code reads as no date.
 *
 * @example
 * parseReceptionDate("20-11-2026 10:11:12", "getSiiReceptionDate"); // "2026-11-20T10:11:12"
 */
export function parseReceptionDate(returnXml: string, operation: string): string | null {
  if (findElements(returnXml, "codResp").length > 0) {
    parseRegistryAnswer(returnXml, operation);
    return null;
  }
  const text = unescapeXml(returnXml).trim();
  return text === "" ? null : normalizeSiiDateTime(text);
}

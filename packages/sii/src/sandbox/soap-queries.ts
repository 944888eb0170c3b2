import { documentStateInfo } from "../codes/document-states.js";
import { envelopeStateInfo } from "../codes/envelope-states.js";
import { respuesta, siiTimestamp } from "./answers.js";
import { countsOf, estadoAt } from "./envelopes.js";
import { isReceived } from "./registry.js";
import type { SandboxState } from "./state.js";

const atencion = (state: SandboxState) => `${Math.floor(Math.random() * 90000) + 10000}   ( ${siiTimestamp(state.settings.now()).replace(/-/g, "/")})`;

function tokenProblem(state: SandboxState, token: string): string | null {
  const check = state.credentials.checkToken(token, "dte");
  if (check.status === "valid") return null;
  return check.status === "expired" ? "001" : "002";
}

/**
 * QueryEstUp.getEstUp: the envelope's progress (REC → … → EPR or a rejection) with counts per type once processed; the
 * GLOSA names the state only, as the SII's does.
 *
 * @example
 * estUpAnswer(state, { rut: "76192083", dv: "9", trackId, token });
 */
export function estUpAnswer(state: SandboxState, q: { rut: string; dv: string; trackId: string; token: string }): string {
  const tokenEstado = tokenProblem(state, q.token);
  if (tokenEstado !== null) return respuesta([["ESTADO", tokenEstado], ["GLOSA", envelopeStateInfo(tokenEstado)?.descripcion ?? "Token"]], [], false);
  const record = state.envelopes.get(q.trackId.replace(/^0+/, "").padStart(10, "0"));
  if (record === undefined || record.rutEmisor.toUpperCase() !== `${q.rut}-${q.dv}`.toUpperCase()) {
    return respuesta([["TRACKID", q.trackId], ["ESTADO", "-11"], ["ERR_CODE", "1"], ["GLOSA", "Envío no corresponde a la empresa o no existe"]], [], false);
  }
  const estado = estadoAt(record, state.settings.now().getTime(), state.settings.stepMs);
  // Only the state's words, as the SII answers: the reasons (the record's `envelopeErrors`, kept in the journal) reach
  // an issuer in the SII's result mail, never in QueryEstUp.
  const glosa = envelopeStateInfo(estado)?.descripcion ?? estado;
  const body = estado === "EPR"
    ? countsOf(record.documents).flatMap((c) => [
        ["TIPO_DOCTO", String(c.tipo)], ["INFORMADOS", String(c.informados)], ["ACEPTADOS", String(c.aceptados)],
        ["RECHAZADOS", String(c.rechazados)], ["REPAROS", String(c.reparos)],
      ] as Array<[string, string]>)
    : [];
  return respuesta([["TRACKID", record.trackId], ["ESTADO", estado], ["GLOSA", glosa], ["NUM_ATENCION", atencion(state)]], body);
}

/** Which document to judge, with the data to compare (`fecha` as `YYYY-MM-DD`; the receiver only when given). */
export interface DocumentQuery {
  rutCompania: string;
  tipo: number;
  folio: number;
  fecha: string;
  monto: number;
  rutReceptor?: string;
}

/** Parameters of QueryEstDte as received (`fecha` as `DDMMAAAA`). */
export interface EstDteQuery extends DocumentQuery {
  rutReceptor: string;
  token: string;
}

/**
 * QueryEstDte.getEstDte: the token checked, then {@link documentEstado}.
 *
 * @example
 * estDteAnswer(state, { rutCompania: "76192083-9", tipo: 33, folio: 1, fecha: "15012026", monto: 1190, rutReceptor: "60803000-K", token });
 */
export function estDteAnswer(state: SandboxState, q: EstDteQuery): string {
  const tokenEstado = tokenProblem(state, q.token);
  if (tokenEstado !== null) return respuesta([["ESTADO", tokenEstado], ["GLOSA_ESTADO", "Token no válido"]]);
  const estado = documentEstado(state, { ...q, fecha: `${q.fecha.slice(4, 8)}-${q.fecha.slice(2, 4)}-${q.fecha.slice(0, 2)}` });
  const info = documentStateInfo(estado);
  return respuesta([
    ["ESTADO", estado], ["GLOSA_ESTADO", info?.descripcion ?? estado], ["ERR_CODE", info?.errCode ?? "0"],
    ["GLOSA_ERR", info?.descripcion ?? estado], ["NUM_ATENCION", atencion(state)],
  ]);
}


/**
 * What the SII says about one document (QueryEstDte and the boleta REST `…/estado` alike): `FAU` until its envelope
 * is processed (and for rejected documents), then `DOK` when the date, total and receiver (when asked) match or `DNK`; `FNA` for
 * folios outside every range the sandbox authorised.
 *
 * @example
 * documentEstado(state, { rutCompania: "76192083-9", tipo: 39, folio: 1, fecha: "2026-01-15", monto: 1190, rutReceptor: "66666666-6" }); // "DOK"
 */
export function documentEstado(state: SandboxState, q: DocumentQuery): string {
  const doc = state.registry.find(q.rutCompania, q.tipo, q.folio);
  if (doc === undefined || !isReceived(doc, state.settings.now().getTime())) {
    const unauthorised = doc === undefined && state.registry.hasRanges(q.rutCompania, q.tipo) &&
      !state.registry.isAuthorised(q.rutCompania, q.tipo, q.folio);
    return unauthorised ? "FNA" : "FAU";
  }
  // The SII matches the document's own MntTotal truncated (an export's in its currency: 112517.5 → 112517).
  const same = doc.fchEmis === q.fecha && Math.trunc(doc.mntTotal) === q.monto && (q.rutReceptor === undefined || doc.rutRecep.toUpperCase() === q.rutReceptor.toUpperCase());
  return same ? "DOK" : "DNK";
}

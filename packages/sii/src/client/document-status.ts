import { documentStateInfo } from "../codes/document-states.js";
import { SII_PATHS } from "../protocol/endpoints.js";
import { getBoletaJson } from "./boleta-get.js";
import type { ClientContext } from "./context.js";
import { SiiTransientError } from "./errors.js";
import { parseEstDteAnswer } from "./parse-est-dte.js";
import { rutParts } from "./rut-parts.js";
import { callSoap } from "./soap-call.js";

/** Which document to ask about (QueryEstDte). */
export interface DocumentStatusQuery {
  rutEmisor: string;
  rutReceptor: string;
  tipo: number;
  folio: number;
  /** `YYYY-MM-DD` (sent as `DDMMAAAA`). */
  fecha: string;
  /**
   * The document's own `MntTotal`, sent truncated to a whole number: for an export (110–112) its total in its
   * currency (112517.5 → 112517), never its pesos, which the SII answers DNK (BRIEF-doctypes §3, "TED / status query").
   */
  monto: number;
}

/** QueryEstDte's answer. */
export interface DocumentStatus {
  /** `DOK`, `DNK`, `FAU`, `FNA`, `FAN`, `ANC`… */
  estado: string;
  glosa: string | null;
  errCode: string | null;
  glosaErr: string | null;
  numAtencion: string | null;
}

/**
 * `YYYY-MM-DD` → `DDMMAAAA`.
 *
 * @example
 * toDdMmAaaa("2026-01-15"); // "15012026"
 */
export function toDdMmAaaa(fecha: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(fecha);
  if (!m) throw new Error(`fecha must be YYYY-MM-DD: ${fecha}`);
  return `${m[3]}${m[2]}${m[1]}`;
}

/**
 * QueryEstDte.getEstDte (consultant = the identity's holder). Token ESTADOs throw a transient `token` error.
 *
 * @example
 * const status = await queryEstDte(ctx, token, { rutEmisor, rutReceptor, tipo: 33, folio: 1, fecha: "2026-01-15", monto: 65061 });
 */
export async function queryEstDte(ctx: ClientContext, token: string, query: DocumentStatusQuery): Promise<DocumentStatus> {
  const op = "getDocumentStatus";
  const consultant = rutParts(ctx.identity.holderRut);
  const company = rutParts(query.rutEmisor);
  const receiver = rutParts(query.rutReceptor);
  const inner = await callSoap(ctx, "QueryEstDte", {
    RutConsultante: consultant.body,
    DvConsultante: consultant.dv,
    RutCompania: company.body,
    DvCompania: company.dv,
    RutReceptor: receiver.body,
    DvReceptor: receiver.dv,
    TipoDte: String(query.tipo),
    FolioDte: String(query.folio),
    FechaEmisionDte: toDdMmAaaa(query.fecha),
    MontoDte: String(Math.trunc(query.monto)),
    Token: token,
  }, op);
  const answer = parseEstDteAnswer(inner);
  const estado = answer.estado ?? "";
  if (["001", "002", "003"].includes(estado)) {
    throw new SiiTransientError(op, "token", `SII token not accepted (ESTADO ${estado})`, { status: estado });
  }
  if (estado === "") throw new SiiTransientError(op, "malformed", "QueryEstDte answer without ESTADO");
  return {
    estado,
    glosa: answer.glosaEstado ?? documentStateInfo(estado)?.descripcion ?? null,
    errCode: answer.errCode,
    glosaErr: answer.glosaErr,
    numAtencion: answer.numAtencion,
  };
}

/**
 * One boleta's status by the boleta REST API (`GET …/boleta.electronica/{rut}-{dv}-{tipo}-{folio}/estado`, the
 * SII's OpenAPI "API SII V1" 1.0.5): the same codes as QueryEstDte (`DOK`, `DNK`, `FAU`, `FNA`, `ANC`…), answered
 * as `{ codigo, descripcion }`. QueryEstDte is the service for DTEs; boletas are asked here, with the boleta token.
 * A 404 is no answer about the boleta (a wrong path or host), so it throws a transient `http` error rather than
 * reading as "not received" — a document is never re-sent on a guess.
 *
 * @example
 * const status = await queryBoletaDocumentStatus(ctx, boletaToken, { rutEmisor, rutReceptor: "66666666-6", tipo: 39, folio: 1, fecha: "2026-01-15", monto: 1190 });
 */
export async function queryBoletaDocumentStatus(ctx: ClientContext, token: string, query: DocumentStatusQuery): Promise<DocumentStatus> {
  const op = "getDocumentStatus";
  const company = rutParts(query.rutEmisor);
  const receiver = rutParts(query.rutReceptor);
  const ddmmaaaa = toDdMmAaaa(query.fecha);
  const params = new URLSearchParams({
    rut_receptor: receiver.body,
    dv_receptor: receiver.dv,
    monto: String(Math.trunc(query.monto)),
    fechaEmision: `${ddmmaaaa.slice(0, 2)}-${ddmmaaaa.slice(2, 4)}-${ddmmaaaa.slice(4)}`,
  });
  const url = `${ctx.hosts.boletaApi}${SII_PATHS.boletaDocumentStatus(company.body, company.dv, query.tipo, query.folio)}?${params}`;
  const json = await getBoletaJson(ctx, token, url, op);
  if (json === null) throw new SiiTransientError(op, "http", "boleta status: HTTP 404", { httpStatus: 404 });
  const body = typeof json === "object" && json !== null ? (json as Record<string, unknown>) : {};
  const estado = typeof body.codigo === "string" ? body.codigo.trim().toUpperCase() : "";
  if (estado === "") throw new SiiTransientError(op, "malformed", "boleta status answer without codigo");
  const descripcion = typeof body.descripcion === "string" && body.descripcion.trim() !== "" ? body.descripcion.trim() : null;
  return { estado, glosa: descripcion ?? documentStateInfo(estado)?.descripcion ?? null, errCode: null, glosaErr: null, numAtencion: null };
}

import { SII_PATHS } from "../protocol/endpoints.js";
import { envelopeStateInfo } from "../codes/envelope-states.js";
import type { ClientContext } from "./context.js";
import { envelopeVerdict, type EnvelopeVerdict, type LifecycleState } from "./envelope-state.js";
import { SiiTransientError } from "./errors.js";
import { getBoletaJson } from "./boleta-get.js";
import { parseBoletaStatus, type DocumentVerdict } from "./parse-boleta.js";
import { parseEstUpAnswer, type TipoCounts } from "./parse-est-up.js";
import { rutParts } from "./rut-parts.js";
import { callSoap } from "./soap-call.js";

/** The status of an uploaded envelope. */
export interface EnvelopeStatus {
  trackId: string;
  /** The SII's ESTADO (`REC`, `EPR`, `RFR`, `-11`…). */
  estado: string;
  glosa: string | null;
  /** QueryEstUp `ERR_CODE` (e.g. `2` with `-11` = still processing). */
  errCode: string | null;
  counts: TipoCounts[];
  /** Per-document verdicts when the SII gives them (boleta REST `detalle_rep_rech`, sandbox). */
  documents?: DocumentVerdict[];
  /** The service state this status means for the envelope's documents (BRIEF §8, core lifecycle). */
  state: LifecycleState;
  /** Core's full verdict (processing / final / unresolved on mixed counts / unknown). */
  verdict: EnvelopeVerdict;
}

/** Which envelope to ask about. */
export interface EnvelopeStatusQuery {
  trackId: string;
  rutEmisor: string;
}

function withVerdict(estado: string, errCode: string | null, counts: readonly TipoCounts[]) {
  const verdict = envelopeVerdict(estado, errCode, counts);
  return { state: verdict.state, verdict };
}

function tokenError(operation: string, estado: string): SiiTransientError {
  return new SiiTransientError(operation, "token", `SII token not accepted (ESTADO ${estado})`, { status: estado });
}

/**
 * QueryEstUp.getEstUp. Token ESTADOs 001–003 throw a transient `token` error (re-authenticate once).
 *
 * @example
 * const status = await queryEstUp(ctx, token, { trackId: "0260003916", rutEmisor: "76192083-9" });
 */
export async function queryEstUp(ctx: ClientContext, token: string, query: EnvelopeStatusQuery): Promise<EnvelopeStatus> {
  const op = "getUploadStatus";
  const company = rutParts(query.rutEmisor);
  const inner = await callSoap(ctx, "QueryEstUp", { RutCompania: company.body, DvCompania: company.dv, TrackId: query.trackId, Token: token }, op);
  const answer = parseEstUpAnswer(inner);
  const estado = answer.estado ?? "";
  if (envelopeStateInfo(estado)?.kind === "token") throw tokenError(op, estado);
  if (estado === "") throw new SiiTransientError(op, "malformed", "QueryEstUp answer without ESTADO");
  return {
    trackId: answer.trackId ?? query.trackId,
    estado,
    glosa: answer.glosa,
    errCode: answer.errCode,
    counts: answer.counts,
    ...withVerdict(estado, answer.errCode, answer.counts),
  };
}

/**
 * GET the boleta REST envelope status. 404 (not registered yet) reads as `REC`; 401 / HTML throw transient
 * `token` / `html` errors.
 *
 * @example
 * const status = await queryBoletaStatus(ctx, boletaToken, { trackId: "12345", rutEmisor: "76192083-9" });
 */
export async function queryBoletaStatus(ctx: ClientContext, token: string, query: EnvelopeStatusQuery): Promise<EnvelopeStatus> {
  const op = "getUploadStatus";
  const company = rutParts(query.rutEmisor);
  const json = await getBoletaJson(ctx, token, `${ctx.hosts.boletaApi}${SII_PATHS.boletaStatus(company.body, company.dv, query.trackId)}`, op);
  if (json === null) {
    return { trackId: query.trackId, estado: "REC", glosa: "Envío aún no registrado (HTTP 404)", errCode: null, counts: [], ...withVerdict("REC", null, []) };
  }
  const parsed = parseBoletaStatus(json);
  const estado = parsed.estado ?? "";
  if (estado === "") throw new SiiTransientError(op, "malformed", "boleta status answer without estado");
  return {
    trackId: parsed.trackId ?? query.trackId,
    estado,
    glosa: envelopeStateInfo(estado)?.descripcion ?? null,
    errCode: null,
    counts: parsed.counts,
    documents: parsed.documents,
    ...withVerdict(estado, null, parsed.counts),
  };
}

import { describeSiiCode } from "../codes/describe.js";

/**
 * Why a call failed in a way worth retrying later. `request_refused`: the SII answered a client error (4xx) that
 * is no verdict on what was sent (429, 403, 404…) — nothing was received.
 */
export type TransientReason = "timeout" | "network" | "http" | "html" | "status" | "token" | "malformed" | "estado" | "request_refused";

/** Base of the client's errors (no token or key material is ever put in messages). */
export class SiiError extends Error {
  /**
   * The client operation: `getSeed`, `getToken`, `uploadEnvelope`, `getUploadStatus`, `getDocumentStatus`,
   * `listReceiverEvents`, `getAssignability`, `getSiiReceptionDate`, `registerReceiverAction`.
   */
  readonly operation: string;
  /** HTTP status when there was an HTTP answer. */
  readonly httpStatus: number | undefined;

  constructor(operation: string, message: string, options: { httpStatus?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SiiError";
    this.operation = operation;
    this.httpStatus = options.httpStatus;
  }
}

/**
 * The SII could not be reached or did not give a usable answer (timeouts, network errors, 5xx, HTML pages,
 * upload STATUS 2/3/5/9/99, token errors after one re-authentication): retry later. For an upload this means the
 * outcome is unknown — reconcile (QueryEstDte) before re-sending the same folios.
 */
export class SiiTransientError extends SiiError {
  readonly reason: TransientReason;
  /** Upload STATUS or SII ESTADO when one was read. */
  readonly status: string | undefined;

  constructor(
    operation: string,
    reason: TransientReason,
    message: string,
    options: { httpStatus?: number; status?: string; cause?: unknown } = {},
  ) {
    super(operation, message, options);
    this.name = "SiiTransientError";
    this.reason = reason;
    this.status = options.status;
  }
}

/**
 * The SII refused the upload (STATUS 1/6/7/8, or a boleta REST 400): retrying the same bytes will fail again — a
 * verdict on the envelope. `status` is the SII code, `detail` the SII's error lines, `ayuda` a Spanish hint.
 */
export class SiiRefusedError extends SiiError {
  readonly status: string;
  readonly detail: string[];
  readonly descripcion: string;
  readonly ayuda: string;

  constructor(operation: string, status: string, detail: string[], options: { httpStatus?: number } = {}) {
    const info = describeSiiCode(status, "upload");
    super(operation, `SII refused ${operation}: STATUS ${status} (${info.descripcion})`, options);
    this.name = "SiiRefusedError";
    this.status = status;
    this.detail = detail;
    this.descripcion = info.descripcion;
    this.ayuda = info.ayuda;
  }
}

/**
 * The SII did not authenticate us (GetTokenFromSeed ESTADO other than 00 and the transient ones: the signed seed, the
 * certificate or its registration): nothing was uploaded or asked, and asking again fails until the certificate
 * or its registration at the SII is fixed. Not a verdict on any document.
 */
export class SiiAuthError extends SiiError {
  readonly status: string;
  readonly detail: string[];
  readonly descripcion: string;
  readonly ayuda: string;

  constructor(operation: string, status: string, detail: string[]) {
    const info = describeSiiCode(status, "token");
    super(operation, `SII did not authenticate (${operation}): ESTADO ${status} (${info.descripcion})`);
    this.name = "SiiAuthError";
    this.status = status;
    this.detail = detail;
    this.descripcion = info.descripcion;
    this.ayuda = info.ayuda;
  }
}

import { describeSiiCode } from "../codes/describe.js";

/** Why a call failed in a way worth retrying later. */
export type TransientReason = "timeout" | "network" | "http" | "html" | "status" | "token" | "malformed" | "estado";

/** Base of the client's errors (no token or key material is ever put in messages). */
export class SiiError extends Error {
  /** The client operation: `getSeed`, `getToken`, `uploadEnvelope`, `getUploadStatus`, `getDocumentStatus`. */
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
 * The SII refused the request (upload STATUS 1/6/7/8, or an authentication refusal): retrying the same bytes will
 * fail again. `status` is the SII code, `detail` the SII's error lines, `hint` a Spanish explanation.
 */
export class SiiRefusedError extends SiiError {
  readonly status: string;
  readonly detail: string[];
  readonly descripcion: string;
  readonly ayuda: string;

  constructor(operation: string, status: string, detail: string[], options: { httpStatus?: number; context?: "upload" | "token" } = {}) {
    const info = describeSiiCode(status, options.context ?? "upload");
    super(operation, `SII refused ${operation}: STATUS ${status} (${info.descripcion})`, options);
    this.name = "SiiRefusedError";
    this.status = status;
    this.detail = detail;
    this.descripcion = info.descripcion;
    this.ayuda = info.ayuda;
  }
}

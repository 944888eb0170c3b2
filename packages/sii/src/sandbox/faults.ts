/**
 * Fault modes: refuse connections (`down`), HTTP 500, an HTML page, no answer until the client gives up, or
 * (`token_refused`, on a token request) the SII's ESTADO -07 — the certificate's holder is not registered for
 * authentication by certificate. Use `path` (`GetTokenFromSeed`, `boleta.electronica.token`) to aim it.
 * `lost_answer` (DTEUpload): the file is received and processed, but the answer carries `status` (default `99`,
 * "error interno o envío ya recibido") and no TRACKID — the client cannot know the file arrived.
 */
export type FaultMode = "down" | "http500" | "html" | "timeout" | "token_refused" | "lost_answer";

/** A programmed fault: `count` requests (default: until cleared) get `mode`. */
export interface FaultSpec {
  mode: FaultMode;
  count?: number;
  /** Only requests whose path contains this text (default: every path). */
  path?: string;
  /** `lost_answer`: the upload STATUS answered (default `99`). */
  status?: string;
}

/**
 * Programmable fault injection for tests (`sandbox.faults.set({ mode: "http500", count: 1 })`).
 *
 * @example
 * faults.set({ mode: "html", count: 1 });
 * faults.take("/DTEWS/QueryEstUp.jws")?.mode; // "html", then undefined
 */
export class FaultInjector {
  #spec: FaultSpec | null = null;
  #remaining = Infinity;

  /** Programs a fault (replacing any previous one). */
  set(spec: FaultSpec): void {
    this.#spec = spec;
    this.#remaining = spec.count ?? Infinity;
  }

  /** Removes the programmed fault. */
  clear(): void {
    this.#spec = null;
  }

  /** The fault for this request, consuming one use; `null` when none applies. */
  take(path: string): FaultSpec | null {
    const spec = this.#spec;
    if (spec === null || (spec.path !== undefined && !path.includes(spec.path))) return null;
    this.#remaining -= 1;
    if (this.#remaining <= 0) this.#spec = null;
    return spec;
  }
}

/**
 * Fault modes: refuse connections (`down`), HTTP 500, an HTML page, no answer until the client gives up, or
 * (`token_refused`, on a token request) the SII's ESTADO -07 — the certificate's holder is not registered for
 * authentication by certificate. Use `path` (`GetTokenFromSeed`, `boleta.electronica.token`) to aim it.
 * `lost_answer` (DTEUpload): the file is received and processed, but the answer carries `status` (default `99`,
 * "error interno o envío ya recibido") and no TRACKID — the client cannot know the file arrived.
 * Two modes answer normally, only later: `slow` after `delayMs` (the real SII's latency, for benchmarks), and
 * `hold` once the test calls `release()` or `clear()` — meanwhile `held` counts the requests waiting, which tells a
 * test how many requests a client has in flight at once without measuring time.
 */
export type FaultMode = "down" | "http500" | "html" | "timeout" | "token_refused" | "lost_answer" | "slow" | "hold";

/** A programmed fault: `count` requests (default: until cleared) get `mode`. */
export interface FaultSpec {
  mode: FaultMode;
  count?: number;
  /** Only requests whose path contains this text (default: every path). */
  path?: string;
  /** `lost_answer`: the upload STATUS answered (default `99`). */
  status?: string;
  /** `slow`: how long each request waits before its normal answer (default 200 ms). */
  delayMs?: number;
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
  #held: Array<() => void> = [];
  #peakHeld = 0;

  /** Programs a fault (replacing any previous one). */
  set(spec: FaultSpec): void {
    this.#spec = spec;
    this.#remaining = spec.count ?? Infinity;
    this.#peakHeld = this.#held.length;
  }

  /** Removes the programmed fault; requests held by `hold` go on. */
  clear(): void {
    this.#spec = null;
    this.release();
  }

  /** `hold`: waits until `release()` or `clear()`, or until the client gives up (`signal`), which no longer counts. */
  hold(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const release = () => {
        this.#held = this.#held.filter((r) => r !== release);
        resolve();
      };
      if (signal?.aborted) return release();
      signal?.addEventListener("abort", release, { once: true });
      this.#held.push(release);
      this.#peakHeld = Math.max(this.#peakHeld, this.#held.length);
    });
  }

  /** Lets every held request go on (a `hold` fault still programmed holds the next ones). */
  release(): void {
    const held = this.#held;
    this.#held = [];
    for (const resolve of held) resolve();
  }

  /** Requests waiting in `hold` now (their clients still waiting for the answer). */
  get held(): number {
    return this.#held.length;
  }

  /** The most requests waiting in `hold` at once since the fault was set. */
  get peakHeld(): number {
    return this.#peakHeld;
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

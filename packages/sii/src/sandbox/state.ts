import { randomInt } from "node:crypto";
import type { AuthorityKey } from "@timbre/core/caf";
import { Credentials } from "./credentials.js";
import type { EnvelopeRecord } from "./envelopes.js";
import { FaultInjector } from "./faults.js";
import type { JournalEntry, SandboxJournal } from "./journal.js";
import { DocumentRegistry } from "./registry.js";
import { resultMailOf, type ResultMailOption } from "./result-mail.js";

/** Settings resolved from `createSandbox` options. */
export interface SandboxSettings {
  now: () => Date;
  stepMs: number;
  /** How long a `[sandbox:timeout]` or `timeout` fault request hangs before an HTML page (default 10 min). */
  hangMs: number;
  authorities: AuthorityKey[];
  rejectionCode: string;
  remarkCode: string;
  /** `validateXsd` switch: `auto` validates when the schemas are present. */
  xsd: "auto" | "off";
  /** xml-crypto second check of every signature (`on`) or core's own checks only (`off`). */
  crossCheck: "on" | "off";
  /** Issuers enabled to send (normalised RUTs); `null` = every issuer. */
  companies: string[] | null;
  /** Host written in SOAP answer namespaces. */
  namespaceHost: string;
  /** The SII environment the sandbox stands for: the carátula's resolution is checked against it (CRT-3-19). */
  environment: "certificacion" | "produccion";
}

/**
 * The mutable world of one sandbox: credentials, documents, envelopes, faults and pending hung requests.
 *
 * @example
 * const state = new SandboxState(settings);
 * state.nextTrackId(); // "4178340001"
 */
export class SandboxState {
  readonly credentials: Credentials;
  readonly registry = new DocumentRegistry();
  readonly envelopes = new Map<string, EnvelopeRecord>();
  /** Files processed (EPR), by issuer and SHA-256 of their bytes → their TRACKID: the same file again is `RPT`. */
  readonly processedFiles = new Map<string, string>();
  readonly faults = new FaultInjector();
  readonly #hung = new Set<() => void>();
  #trackSeq: number;
  #journal: SandboxJournal | null = null;
  /** Where reviewed envelopes' result mails go (`createSandbox`'s `resultMail`), and the mails not yet due. */
  resultMail: ResultMailOption | null = null;
  readonly #mailTimers = new Set<ReturnType<typeof setTimeout>>();

  constructor(readonly settings: SandboxSettings, seedTtlMs: number, tokenTtlMs: number) {
    this.credentials = new Credentials(settings.now, seedTtlMs, tokenTtlMs);
    this.#trackSeq = randomInt(1_000_000, 9_000_000) * 1000;
  }

  /** Replays `journal` into this state, then records every later change there. */
  keepIn(journal: SandboxJournal): void {
    journal.replay(this);
    this.#journal = journal;
  }

  /** Records a change in the journal, when the sandbox keeps one. */
  remember(entry: JournalEntry): void {
    this.#journal?.append(entry);
  }

  /** A TRACKID handed out before (replayed): later ones follow it, so none is given twice. */
  seeTrackId(trackId: string): void {
    const n = Number(trackId);
    if (Number.isSafeInteger(n) && n > this.#trackSeq) this.#trackSeq = n;
  }

  /** A new 10-digit TRACKID (as a string). */
  nextTrackId(): string {
    this.#trackSeq += 1;
    return String(this.#trackSeq).padStart(10, "0");
  }

  /** Waits `hangMs` (or until `releaseHung`) — the request gets no timely answer. */
  hang(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.settings.hangMs);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.#hung.delete(done);
        resolve();
      }
      this.#hung.add(done);
    });
  }

  /**
   * Mails the envelope's `RESULTADO_ENVIO` when it reaches its final state (`stepMs` after each step), if the
   * sandbox has a `resultMail`. Mails not yet due when the sandbox closes are not sent (nor after a restart).
   */
  scheduleResultMail(record: EnvelopeRecord, dueAt: number): void {
    const target = this.resultMail;
    const mail = target === null ? null : resultMailOf(record, this.settings.environment);
    if (target === null || mail === null) return;
    const timer = setTimeout(() => {
      this.#mailTimers.delete(timer);
      void Promise.resolve().then(() => target.send(mail)).catch(() => {});
    }, Math.max(0, dueAt - this.settings.now().getTime()));
    this.#mailTimers.add(timer);
  }

  /** Ends every hanging request and drops the mails not yet due (on close). */
  releaseHung(): void {
    for (const done of [...this.#hung]) done();
    for (const timer of this.#mailTimers) clearTimeout(timer);
    this.#mailTimers.clear();
  }
}

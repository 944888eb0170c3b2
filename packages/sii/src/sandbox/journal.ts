/**
 * The sandbox's memory on disk, like the SII's: what it received (envelopes, their documents, TRACKIDs), the folio
 * ranges it authorised and the receivers' events, as JSON lines appended as they happen and replayed on start, so a
 * restarted sandbox still knows every document (no "18: Documento no ha sido recibido" after a restart).
 * Tokens and seeds are not kept: a client signs in again, as it does when the SII's tokens expire.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type { EnvelopeRecord } from "./envelopes.js";
import type { ReceiverEventRecord, RegisteredDocument } from "./registry.js";
import type { SandboxState } from "./state.js";

/** One line of the journal. */
export type JournalEntry =
  | { kind: "range"; rut: string; tipo: number; desde: number; hasta: number }
  /** An envelope given a TRACKID; `fileKey` when its file was processed (a repeat is `RPT`); its documents registered. */
  | { kind: "envelope"; record: EnvelopeRecord; fileKey: string | null; documents: RegisteredDocument[] }
  | { kind: "event"; rutEmisor: string; tipo: number; folio: number; event: ReceiverEventRecord };

/**
 * An append-only JSON-lines file.
 *
 * @example
 * const journal = new SandboxJournal("/var/lib/timbre/sii-sandbox.jsonl");
 * journal.replay(state); journal.append({ kind: "range", rut: "76192083-9", tipo: 33, desde: 1, hasta: 100 });
 */
export class SandboxJournal {
  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
  }

  /** Writes one entry before the caller answers (synchronously: a stop right after loses nothing). */
  append(entry: JournalEntry): void {
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }

  /** Applies every entry of the file to `state`; a line cut short by a crash mid-write is skipped. Returns the count. */
  replay(state: SandboxState): number {
    if (!existsSync(this.path)) return 0;
    let applied = 0;
    for (const line of readFileSync(this.path, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      let entry: JournalEntry;
      try {
        entry = JSON.parse(line) as JournalEntry;
      } catch {
        continue;
      }
      applyEntry(state, entry);
      applied++;
    }
    return applied;
  }
}

function applyEntry(state: SandboxState, entry: JournalEntry): void {
  if (entry.kind === "range") state.registry.addRange(entry.rut, entry.tipo, entry.desde, entry.hasta);
  else if (entry.kind === "envelope") {
    state.envelopes.set(entry.record.trackId, entry.record);
    state.seeTrackId(entry.record.trackId);
    if (entry.fileKey !== null) state.processedFiles.set(entry.fileKey, entry.record.trackId);
    for (const doc of entry.documents) state.registry.register(doc);
  } else if (entry.kind === "event") {
    state.registry.find(entry.rutEmisor, entry.tipo, entry.folio)?.receiverEvents.push(entry.event);
  }
}

/**
 * A process's forecast of the folios its next emission rounds will get, so that a round can timbre and sign its
 * documents BEFORE it takes the ranges' row locks (`create-document.ts`). A round signs while it holds those locks;
 * every other round of the business, in any process, waits for them. Signing with forecast folios moves that work
 * out of the locked stretch: the lock is then held for the folio statement, the INSERTs and the commit only.
 *
 * The forecast is only a guess and never decides a folio: `allocateFolios` does, under the lock, as before. A
 * document signed ahead is kept only when the folio it carries is the one the database then gave it, in the same
 * range — its bytes are then exactly those signing after the allocation would give (the same input, folio, CAF,
 * certificate and timestamp). Otherwise it is signed again under the lock, as every document was before.
 *
 * Forecasts run ahead of the database: the rounds in flight each take the run after the previous forecast. What a
 * real allocation shows differently (another process took folios, a round rolled back, the range ran out or a new
 * range came first) resets the forecast to that allocation's end, and later guesses follow from there.
 */
import type { Caf } from "@timbre/core/caf";
import type { AllocatedRun } from "./allocate-folio.js";

/** Where the next document of a group is expected to be numbered. */
export interface ForecastFolio {
  numerationId: string;
  folio: number;
  caf: Caf;
  /** Which forecast of the group handed it out: folios of one generation follow each other with no gap. */
  generation: number;
}

interface Expected {
  generation: number;
  /**
   * A round's forecast of this generation held (its documents stored with the forecast folios): documents may be
   * signed as they arrive (`steady`). A new generation starts unproven.
   */
  proven: boolean;
  numerationId: string;
  caf: Caf;
  /** The next folio no forecast has handed out yet. */
  next: number;
  /** The range's last folio: a forecast never crosses it. */
  hasta: number;
}

export class FolioForecast {
  private readonly groups = new Map<string, Expected>();
  private generations = 0;

  /**
   * The folios `count` documents of the group are expected to get, in order, and takes them for this forecast; null
   * when nothing is known yet or they would not all fit in the range.
   */
  take(group: string, count: number): ForecastFolio[] | null {
    const expected = this.groups.get(group);
    if (!expected || count <= 0 || expected.next + count - 1 > expected.hasta) return null;
    const first = expected.next;
    expected.next += count;
    return Array.from({ length: count }, (_, k) => ({ numerationId: expected.numerationId, folio: first + k, caf: expected.caf, generation: expected.generation }));
  }

  /**
   * True when `folios` (taken one by one, in order) are a run the group's current forecast handed out last: the
   * same generation, one after the other, ending where the next would begin. A round may then use them as if it
   * had taken them all at once.
   */
  isLastRun(group: string, folios: readonly ForecastFolio[]): boolean {
    const expected = this.groups.get(group);
    const last = folios.at(-1);
    if (!expected || !last || last.folio !== expected.next - 1) return false;
    const first = last.folio - folios.length + 1;
    return folios.every((f, k) => f.generation === expected.generation && f.numerationId === expected.numerationId && f.folio === first + k);
  }

  /**
   * True when the group's forecast has held since it was last reset: worth signing documents one by one as they
   * arrive (`create-document.ts`, `signOnArrival`). Where another process keeps taking folios of the same range, each
   * forecast fails and every early signature would be made twice; rounds then sign at their start, as before.
   */
  steady(group: string): boolean {
    return this.groups.get(group)?.proven === true;
  }

  /** A round stored its documents with these forecast folios of the group: that generation of the forecast holds. */
  held(group: string, folios: readonly ForecastFolio[]): void {
    const expected = this.groups.get(group);
    if (expected && folios.length > 0 && folios.every((f) => f.generation === expected.generation)) expected.proven = true;
  }

  /** Forgets what is known of the group (its forecast no longer held): its next round is not signed ahead. */
  forget(group: string): void {
    this.groups.delete(group);
  }

  /**
   * What the database gave the group: when its last run is not where the forecast had it, forecasting goes on from
   * that run's end. `forecast` is what `take` said for the same documents (null when it said nothing).
   */
  learn(group: string, runs: readonly AllocatedRun[], forecast: readonly ForecastFolio[] | null): void {
    const last = runs.at(-1);
    if (!last) {
      this.groups.delete(group);
      return;
    }
    const end = last.first + last.count - 1;
    const forecastLast = forecast?.at(-1);
    if (forecast && forecastLast && forecastLast.numerationId === last.numerationId && forecastLast.folio === end) {
      this.held(group, forecast);
      return;
    }
    this.groups.set(group, { generation: ++this.generations, proven: false, numerationId: last.numerationId, caf: last.caf, next: end + 1, hasta: last.hasta });
  }
}

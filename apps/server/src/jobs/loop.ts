/**
 * A small scheduler loop for one worker: runs `tick` at once, again right away while it reports a full batch,
 * otherwise after `intervalMs` or as soon as `wake()` is called. A failing tick is logged and retried after the
 * interval. `stop()` lets the running tick finish (ticks are short: claims and state updates) and resolves after.
 */
import type { Logger } from "../log.js";

export interface LoopOptions {
  name: string;
  intervalMs: number;
  /** One round of work; returns true when there may be more due work right now. */
  tick: () => Promise<boolean>;
  log: Logger;
}

export interface Loop {
  wake(): void;
  stop(): Promise<void>;
}

export function startLoop(options: LoopOptions): Loop {
  let stopped = false;
  let woken = false;
  let sleeping: (() => void) | null = null;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopped) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        sleeping = null;
        resolve();
      }
      sleeping = done;
    });

  const run = async () => {
    while (!stopped) {
      woken = false;
      let more = false;
      try {
        more = await options.tick();
      } catch (error) {
        options.log.error("worker.tick_failed", { worker: options.name, error: error instanceof Error ? error.message : String(error) });
      }
      if (!more && !stopped) await sleep(options.intervalMs);
    }
  };
  const running = run();

  return {
    wake() {
      woken = true;
      sleeping?.();
    },
    async stop() {
      stopped = true;
      sleeping?.();
      await running;
    },
  };
}

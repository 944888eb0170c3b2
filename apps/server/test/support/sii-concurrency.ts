import { expect } from "bun:test";
import type { Sandbox } from "@timbre/sii";

/**
 * Runs `work` while the sandbox SII holds every request to `path`, and checks that exactly `expected` of them wait
 * at once (a client that asks one at a time would have one waiting); then lets them go and waits for `work`.
 * Counts requests, not time: the only waits are for the count to be reached and a moment to see it not exceeded.
 */
export async function expectHeldAtOnce(sandbox: Sandbox, path: string, expected: number, work: () => Promise<unknown>): Promise<void> {
  sandbox.faults.set({ mode: "hold", path });
  try {
    const running = work();
    for (let i = 0; i < 1_000 && sandbox.faults.held < expected; i++) await Bun.sleep(10);
    expect(sandbox.faults.held).toBe(expected);
    await Bun.sleep(100);
    expect(sandbox.faults.peakHeld).toBe(expected);
    sandbox.faults.clear();
    await running;
  } finally {
    sandbox.faults.clear();
  }
}

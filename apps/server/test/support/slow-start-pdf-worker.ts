/** A PDF thread for tests of `warm()`: the real worker, loaded only after a fixed pause of 1.5 s (a thread slow to start). */
await Bun.sleep(1_500);
await import("../../src/pdf/pdf-worker.js");

export {};

/** A signing thread that takes every message and never answers (tests of `signing-threads.ts`'s watchdog). */
declare const self: { onmessage: ((event: MessageEvent) => void) | null };

self.onmessage = () => {};

export {};

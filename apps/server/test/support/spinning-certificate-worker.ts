/** A certificate-reading thread that never answers and never yields (tests of `certificate-threads.ts`'s time limit). */
declare const self: { onmessage: ((event: MessageEvent) => void) | null };

self.onmessage = () => {
  for (;;) {
    // spin: the thread must be ended from outside
  }
};

export {};

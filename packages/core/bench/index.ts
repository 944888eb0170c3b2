/** `npm run bench` in packages/core: every core benchmark in turn. */
export {};
await import("./sign.js");
await import("./verify-envelope.js");

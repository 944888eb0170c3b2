/** `npm run bench` in packages/core: every core benchmark in turn. */
await import("./sign.js");

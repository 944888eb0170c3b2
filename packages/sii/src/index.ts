/** @timbre/sii — the SII's protocols: a client, a local sandbox SII, and the dictionary of SII codes. */
export * from "./client/index.js";
export * from "./sandbox/index.js";
export * from "./codes/index.js";

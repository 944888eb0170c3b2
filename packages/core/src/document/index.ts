export * from "./types.js";
export * from "./additional-taxes.js";

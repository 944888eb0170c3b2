export * from "./errors/index.js";
export * from "./decimal/index.js";
export * from "./rut/index.js";
export * from "./document/index.js";
export * from "./totals/index.js";
export * from "./xml/index.js";
export * from "./signature/index.js";

export * from "./types.js";
export * from "./additional-taxes.js";
export * from "./dispatch-guide.js";
export * from "./export-document.js";
export * from "./liquidation-document.js";
export * from "./purchase-document.js";

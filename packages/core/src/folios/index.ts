/** Pure folio-range arithmetic: availability, status, overlap, oldest-active-first allocation. */
export type { FolioRange, RangeStatus } from "./types.js";
export { available, usedFolios, isExhausted, isExpired, rangeStatus, rangesOverlap } from "./range-status.js";
export { pickRange, allocateFolio, compareRangesOldestFirst } from "./pick-range.js";

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Absolute path of a file of the in-repository data package `packages/sii-data`: `fixtures/…` (test documents) or
 * `certs/…` (the SII's CAF authority keys). Core does not depend on that package; its tests read the files.
 */
export function siiDataPath(relative: string): string {
  return fileURLToPath(new URL(`../../../sii-data/${relative}`, import.meta.url));
}

/** Bytes of a file of `packages/sii-data`. */
export function readSiiData(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(siiDataPath(relative)));
}

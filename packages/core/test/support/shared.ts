import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Absolute path of a file under the repository's sibling `shared/` folder (`../shared` from the repo root). */
export function sharedPath(relative: string): string {
  return fileURLToPath(new URL(`../../../../../shared/${relative}`, import.meta.url));
}

/** Bytes of a file under `shared/`. */
export function readShared(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(sharedPath(relative)));
}

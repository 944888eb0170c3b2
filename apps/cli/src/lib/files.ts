import { readFileSync, writeFileSync } from "node:fs";
import { CommandFailure, EXIT } from "./base-command.js";

/** Reads a file or fails with a message naming it. */
export function readInput(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const message = `Cannot read ${path}: ${(error as Error).message}`;
    throw new CommandFailure(message, { code: "FILE_UNREADABLE", message }, EXIT.usage);
  }
}

/** Parses a JSON file or fails with the parser's reason. */
export function readJsonFile(path: string): unknown {
  const text = readInput(path).toString("utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const message = `${path} is not valid JSON: ${(error as Error).message}`;
    throw new CommandFailure(message, { code: "INVALID_JSON_FILE", message }, EXIT.usage);
  }
}

/** Writes bytes to a file, or to stdout when the path is `-`. */
export function writeOutput(path: string, bytes: Uint8Array): void {
  if (path === "-") process.stdout.write(bytes);
  else writeFileSync(path, bytes);
}

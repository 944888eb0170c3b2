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

/**
 * Where a downloaded document goes when `-o` is not given: stdout (`-`), never a file in the current folder unasked.
 * Binary output (a PDF) goes to stdout only when stdout is not a terminal; at a terminal `-o FILE` is required.
 * With `--json` stdout holds the answer, so the bytes need `-o FILE` too.
 */
export function chooseOutput(given: string | undefined, { binary, json }: { binary: boolean; json: boolean }): string {
  if (given !== undefined) return given;
  if (json) {
    const message = "--json prints the answer on stdout: pass -o FILE for the document's bytes.";
    throw new CommandFailure(message, { code: "MISSING_FLAGS", message }, EXIT.usage);
  }
  if (binary && process.stdout.isTTY) {
    const message = "Not writing a PDF to the terminal: pass -o FILE, or redirect stdout (> file.pdf).";
    throw new CommandFailure(message, { code: "MISSING_FLAGS", message }, EXIT.usage);
  }
  return "-";
}

/** Writes bytes to a file, or to stdout when the path is `-`. */
export function writeOutput(path: string, bytes: Uint8Array): void {
  if (path === "-") process.stdout.write(bytes);
  else writeFileSync(path, bytes);
}

/**
 * Command-line options of the standalone sandbox (`serve.ts`), parsed without side effects except reading the
 * PEM files named by `--trust-pem`.
 */
import { readFileSync } from "node:fs";
import { authorityKeyFromPem, type AuthorityKey } from "@timbre/core/caf";

/** What `serve.ts` starts. The sandbox's own IDK moves out of the way of trusted ones (9999 → 10000). */
export interface ServeOptions {
  port: number;
  host: string;
  stepMs: number;
  idk: number;
  /** Extra CAF authorities (`--trust-pem file` with `--trust-idk n`, default 9999 — the server's sandbox IDK). */
  trusted: AuthorityKey[];
  xsd: "auto" | "off";
  /** xml-crypto second check of every signature (`--cross-check on|off`, default on). */
  crossCheck: "on" | "off";
  /** `--state <file>`: the JSON-lines journal kept across restarts (what was received); null: memory only. */
  stateFile: string | null;
  /** `--environment certificacion|produccion` (default certificacion): the resolution the carátula must carry. */
  environment: "certificacion" | "produccion";
}

/**
 * Reads `--port 4040 --host 127.0.0.1 --step-ms 1000 --idk 9999 --trust-pem key.pem [--trust-idk 9999]
 * --xsd auto|off --cross-check on|off --state sandbox.jsonl --environment certificacion|produccion`; `--trust-pem` may repeat (each takes the `--trust-idk` given before it, or 9999).
 *
 * @example
 * parseServeArgs(["--port", "0", "--trust-pem", "/tmp/authority.pem"]).trusted.length; // 1
 */
export function parseServeArgs(argv: string[], readFile: (path: string) => string = (p) => readFileSync(p, "utf8")): ServeOptions {
  const options: ServeOptions = { port: 4040, host: "127.0.0.1", stepMs: 1000, idk: 9999, trusted: [], xsd: "auto", crossCheck: "on", stateFile: null, environment: "certificacion" };
  let trustIdk = 9999;
  let idkGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i];
    const value = argv[i + 1];
    if (name === undefined || !name.startsWith("--")) continue;
    if (value === undefined) throw new Error(`${name} needs a value`);
    i++;
    if (name === "--port") options.port = integer(name, value);
    else if (name === "--host") options.host = value;
    else if (name === "--step-ms") options.stepMs = integer(name, value);
    else if (name === "--idk") {
      options.idk = integer(name, value);
      idkGiven = true;
    }
    else if (name === "--trust-idk") trustIdk = integer(name, value);
    else if (name === "--state") options.stateFile = value;
    else if (name === "--trust-pem") options.trusted.push(authorityKeyFromPem(trustIdk, readFile(value)));
    else if (name === "--xsd") {
      if (value !== "auto" && value !== "off") throw new Error("--xsd must be auto or off");
      options.xsd = value;
    } else if (name === "--cross-check") {
      if (value !== "on" && value !== "off") throw new Error("--cross-check must be on or off");
      options.crossCheck = value;
    } else if (name === "--environment") {
      if (value !== "certificacion" && value !== "produccion") throw new Error("--environment must be certificacion or produccion");
      options.environment = value;
    } else throw new Error(`unknown option ${name}`);
  }
  // CAFs name their authority by IDK only: the sandbox's own authority must not share one with a trusted key.
  if (options.trusted.some((a) => a.idk === options.idk)) {
    if (idkGiven) throw new Error(`--idk ${options.idk} is also the IDK of a --trust-pem authority`);
    options.idk = Math.max(...options.trusted.map((a) => a.idk)) + 1;
  }
  return options;
}

function integer(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
}

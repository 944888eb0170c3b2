/** The machine line every result starts with, and `--name value` arguments. */
import { execSync } from "node:child_process";
import { cpus, totalmem, loadavg } from "node:os";

export function machine(): string {
  const node = (() => {
    try {
      return execSync("node -v").toString().trim();
    } catch {
      return "n/a";
    }
  })();
  return [
    `date ${new Date().toISOString()}`,
    `nproc ${cpus().length}`,
    `CPU "${cpus()[0]?.model ?? "?"}"`,
    `RAM ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `node ${node}`,
    `bun ${typeof Bun === "undefined" ? "n/a" : Bun.version}`,
    `load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`,
  ].join(", ");
}

export function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

/**
 * The sandbox SII's flags for a benchmark: `--xsd off` skips its XSD validation and `--cross-check off` its
 * xml-crypto second signature check (both are the test double's costs, on the same cores as the service).
 */
export function sandboxArgs(): string[] {
  return [
    "--step-ms",
    "200",
    ...(arg("xsd", "auto") === "off" ? ["--xsd", "off"] : []),
    ...(arg("cross-check", "on") === "off" ? ["--cross-check", "off"] : []),
  ];
}

/** How the sandbox was configured, for the command line a result prints. */
export function sandboxFlags(): string {
  return `--xsd ${arg("xsd", "auto")} --cross-check ${arg("cross-check", "on")}`;
}

/**
 * What a process checks before it starts: the SII's files it uses are where its settings say (by default, bundled
 * in `@timbre/sii-data`). Every problem is reported, each naming the setting that points to the files.
 */
import { schemasDir } from "@timbre/xsd";
import type { Config } from "../config.js";
import { readSiiAuthorities } from "./authority-keys.js";

/**
 * Problems with the SII's files this configuration needs: the CAF authority keys always (every CAF is verified
 * against them), the schemas when this process runs the sandbox SII (it XSD-validates every envelope). Empty: ready.
 *
 * @example
 * for (const problem of siiFileProblems(config)) console.error(`timbre: ${problem}`);
 */
export function siiFileProblems(config: Pick<Config, "siiCertsDir" | "siiMode" | "siiSandboxUrl">): string[] {
  const problems: string[] = [];
  const check = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      problems.push((error as Error).message);
    }
  };
  check(() => readSiiAuthorities(config.siiCertsDir));
  if (config.siiMode === "sandbox" && config.siiSandboxUrl === null) check(() => schemasDir());
  return problems;
}

/**
 * XSD validation's cost per envelope with each engine of `@timbre/xsd`: `bun bench/xsd-engines.ts [--count 200]`.
 * Validates the synthetic EnvioDTE of `@timbre/sii-data` `--count` times with the system's libxml2 (schemas parsed
 * once per thread) and a tenth as many with xmllint-wasm (a worker, libxml2 compiled and every schema parsed per
 * call); prints wall and CPU milliseconds per validation.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { validateXsd, type XsdEngine } from "@timbre/xsd";
import { arg, machine } from "./machine.js";

const COUNT = Number(arg("count", "200"));
const envelope = new Uint8Array(readFileSync(fileURLToPath(new URL("../packages/sii-data/fixtures/synthetic/EnvioDTE-T33F1.xml", import.meta.url))));

async function measure(engine: XsdEngine, count: number): Promise<string> {
  await validateXsd(envelope, "EnvioDTE", { engine }); // warm-up (libxml2: parses the schemas)
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const result = await validateXsd(envelope, "EnvioDTE", { engine });
    if (!result.valid) throw new Error(result.errors.join("\n"));
  }
  const wall = (performance.now() - start) / count;
  const used = process.cpuUsage(cpu);
  return `${engine}: ${count} validations, ${wall.toFixed(3)} ms wall and ${((used.user + used.system) / 1000 / count).toFixed(3)} ms CPU (this process) each`;
}

console.log(machine());
console.log(`command: bun bench/xsd-engines.ts --count ${COUNT}`);
console.log(await measure("libxml2", COUNT));
console.log(await measure("wasm", Math.max(1, Math.round(COUNT / 10))));

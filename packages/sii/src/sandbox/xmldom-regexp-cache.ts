/**
 * The sandbox verifies every envelope and every DTE in it with core's verifier, which parses them with
 * @xmldom/xmldom. xmldom 0.9.12 builds (and the engine compiles) a Unicode `RegExp` from its grammar for every end
 * tag it reads (`g.reg('^', g.QName_group, g.S_OPT, '$')` in lib/sax.js): a fifth of the sandbox's CPU under load.
 * The expressions depend only on their constant parts and carry no `g`/`y` flag (no `lastIndex` state), so the
 * same `RegExp` can serve every call: this wraps `grammar.reg` with a cache by the parts' sources, once per process.
 * Only the sandbox (a test double whose speed matters to the capacity benchmark) installs it; what xmldom parses,
 * and so what the verifier decides, is unchanged.
 */
import { createRequire } from "node:module";

type Reg = (this: unknown, ...parts: Array<RegExp | string>) => RegExp;

let installed = false;

export function cacheXmldomRegExps(): void {
  if (installed) return;
  installed = true;
  const grammar = createRequire(import.meta.url)("@xmldom/xmldom/lib/grammar.js") as { reg?: Reg };
  const original = grammar.reg;
  if (typeof original !== "function") return; // another xmldom layout: nothing to speed up
  const cache = new Map<string, RegExp>();
  grammar.reg = function (this: unknown, ...parts: Array<RegExp | string>): RegExp {
    const key = `${this === undefined ? "u" : "t"}\u0000${parts.map((p) => (typeof p === "string" ? `s${p}` : `r${p.source}`)).join("\u0000")}`;
    let expression = cache.get(key);
    if (!expression) {
      expression = original.apply(this, parts);
      if (expression.global || expression.sticky) return expression;
      cache.set(key, expression);
    }
    return expression;
  };
}

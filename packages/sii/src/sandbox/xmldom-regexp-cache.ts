/**
 * The sandbox verifies every envelope and every DTE in it with core's verifier, which parses them with
 * @xmldom/xmldom. xmldom 0.9.12 builds (and the engine compiles) a Unicode `RegExp` from its grammar for every end
 * tag it reads (`g.reg('^', g.QName_group, g.S_OPT, '$')` in lib/sax.js): a fifth of the sandbox's CPU under load.
 * The expressions depend only on their constant parts and carry no `g`/`y` flag (no `lastIndex` state), so the
 * same `RegExp` can serve every call: this wraps `grammar.reg` with a cache keyed by the parts, once per process.
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
  // A trie over the parts themselves (grammar's RegExp objects by identity, strings by value): the key costs a few
  // map look-ups, not the parts' sources (one of them is thousands of characters long).
  interface Node {
    next: Map<unknown, Node>;
    expression?: RegExp;
  }
  const roots = { bound: { next: new Map() } as Node, unbound: { next: new Map() } as Node };
  let nodes = 0;
  grammar.reg = function (this: unknown, ...parts: Array<RegExp | string>): RegExp {
    // xmldom passes its grammar's constants; should a version ever pass fresh parts, stop growing the cache.
    if (nodes > 1_000) return original.apply(this, parts);
    let node = this === undefined ? roots.unbound : roots.bound;
    for (const part of parts) {
      let child = node.next.get(part);
      if (!child) {
        child = { next: new Map() };
        node.next.set(part, child);
        nodes++;
      }
      node = child;
    }
    if (node.expression) return node.expression;
    const expression = original.apply(this, parts);
    if (!expression.global && !expression.sticky) node.expression = expression;
    return expression;
  };
}

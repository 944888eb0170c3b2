import { createPublicKey, verify as rsaVerify, type KeyObject } from "node:crypto";
import type { VerifyResult } from "./verify-result.js";
import { cachedKey } from "./key-cache.js";
import { childText, messageOf, onlyChild } from "./verify-xml.js";
import { parseXmlTree, type XmlElement } from "./xml-tree.js";

/** CAF public keys (RSAPK) already read, by modulus and exponent. */
const cafKeys = new Map<string, KeyObject>();

const DD_SPECIALS = /[&<>"']/;

/** BRIEF §5 text escaping of the DD; `quotes` also writes `&quot;`/`&apos;` (LibreDTE's convention). */
function escapeDd(s: string, quotes: boolean): string {
  if (!DD_SPECIALS.test(s)) return s;
  const basic = s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return quotes ? basic.replace(/"/g, "&quot;").replace(/'/g, "&apos;") : basic;
}

/**
 * The DD as FRMT signs it (BRIEF §5): no namespace declarations, no whitespace-only text between tags,
 * attributes as `name="value"`, text escaped (`quotes`: also `"` and `'` as entities).
 */
export function flattenDd(el: XmlElement, quotes: boolean): string {
  const out: string[] = [];
  const walk = (e: XmlElement): void => {
    out.push(`<${e.localName}`);
    for (const a of e.attributes) {
      if (a.name === "xmlns" || a.prefix === "xmlns") continue;
      out.push(` ${a.localName}="${escapeDd(a.value, true)}"`);
    }
    out.push(">");
    for (let n = e.firstChild; n !== null; n = n.nextSibling) {
      if (n.nodeType === 1) walk(n);
      else if ((n.nodeType === 3 || n.nodeType === 4) && !/^\s*$/.test(n.nodeValue)) {
        out.push(escapeDd(n.nodeValue, quotes));
      }
    }
    out.push(`</${e.localName}>`);
  };
  walk(el);
  return out.join("");
}

function latin1Bytes(text: string): Buffer | null {
  // eslint-disable-next-line no-control-regex
  return /[^\u0000-\u00ff]/.test(text) ? null : Buffer.from(text, "latin1");
}

/**
 * Verifies a TED element: FRMT (RSA-SHA1 over the flattened DD in ISO-8859-1) with the CAF public key
 * `RSAPK` found in the DD, the folio within the CAF range and RE/TD equal to the CAF's. The CAF's own FRMA
 * (the SII's signature) is not checked here: that is `verifyCaf` (caf/).
 */
export function verifyTedElement(ted: XmlElement): string[] {
  if (ted.localName !== "TED") return ["expected a TED element"];
  const dd = onlyChild(ted, "DD");
  const frmt = onlyChild(ted, "FRMT");
  if (dd === null || frmt === null) return ["TED: expected exactly one DD and one FRMT"];
  const errors: string[] = [];
  if (frmt.getAttribute("algoritmo") !== "SHA1withRSA") errors.push('TED: FRMT algoritmo must be "SHA1withRSA"');
  const m = childText(dd, ["CAF", "DA", "RSAPK", "M"]);
  const e = childText(dd, ["CAF", "DA", "RSAPK", "E"]);
  if (m === null || e === null) return [...errors, "TED: DD/CAF/DA/RSAPK (M, E) missing"];
  const folio = Number(childText(dd, ["F"]));
  const desde = Number(childText(dd, ["CAF", "DA", "RNG", "D"]));
  const hasta = Number(childText(dd, ["CAF", "DA", "RNG", "H"]));
  if (!Number.isInteger(folio) || !(folio >= desde && folio <= hasta)) {
    errors.push(`TED: folio ${childText(dd, ["F"])} outside the CAF range ${desde}-${hasta}`);
  }
  for (const [ddField, cafField] of [["RE", "RE"], ["TD", "TD"]] as const) {
    if (childText(dd, [ddField]) !== childText(dd, ["CAF", "DA", cafField])) {
      errors.push(`TED: DD/${ddField} differs from the CAF's ${cafField}`);
    }
  }
  let key;
  try {
    const n = Buffer.from(m.replace(/\s+/g, ""), "base64").toString("base64url");
    const exp = Buffer.from(e.replace(/\s+/g, ""), "base64").toString("base64url");
    key = cachedKey(cafKeys, `${n}.${exp}`, () => createPublicKey({ key: { kty: "RSA", n, e: exp }, format: "jwk" }));
  } catch (err) {
    return [...errors, `TED: unreadable CAF public key (${messageOf(err)})`];
  }
  const signature = Buffer.from((frmt.textContent ?? "").replace(/\s+/g, ""), "base64");
  const hasQuotes = /["']/.test(dd.textContent ?? "");
  const candidates = hasQuotes ? [flattenDd(dd, true), flattenDd(dd, false)] : [flattenDd(dd, false)];
  const bytes = candidates.map(latin1Bytes);
  if (bytes.some((b) => b === null)) return [...errors, "TED: DD contains characters outside ISO-8859-1"];
  const ok = bytes.some((b) => b !== null && rsaVerify("sha1", b, key, signature));
  if (!ok) errors.push("TED: FRMT does not verify with the CAF public key over DD");
  return errors;
}

/**
 * Verifies a timbre (`<TED version="1.0">…</TED>`, with or without namespace declarations, pretty-printed or
 * flat): FRMT with the CAF's RSAPK over the DD serialized per BRIEF §5, folio inside the CAF range.
 * The CAF's FRMA is not checked (use `verifyCaf` from caf/ with the SII's keys).
 *
 * @example
 * ```ts
 * const ted = buildTed({ input, totals, caf, timestamp });
 * verifyTed(ted); // { valid: true, errors: [] }
 * ```
 */
export function verifyTed(tedXml: string): VerifyResult {
  let errors: string[];
  try {
    errors = verifyTedElement(parseXmlTree(tedXml).documentElement);
  } catch (err) {
    errors = [`TED: ${messageOf(err)}`];
  }
  return { valid: errors.length === 0, errors };
}

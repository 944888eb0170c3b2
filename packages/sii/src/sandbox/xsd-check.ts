import { schemasAvailable, validateXsd } from "@timbre/xsd";

let warned = false;

/**
 * XSD-validates an envelope with `@timbre/xsd`; when the official schemas folder is absent, skips with a one-time
 * warning (returns `null`).
 *
 * @example
 * const errors = await checkXsd(bytes, "EnvioDTE"); // [] when valid, null when skipped
 */
export async function checkXsd(bytes: Uint8Array, root: "EnvioDTE" | "EnvioBOLETA"): Promise<string[] | null> {
  if (!schemasAvailable()) {
    if (!warned) {
      warned = true;
      console.warn("[sii sandbox] SII schemas not found: envelopes are not XSD-validated (set TIMBRE_SII_SCHEMAS)");
    }
    return null;
  }
  const result = await validateXsd(bytes, root);
  return result.valid ? [] : result.errors;
}

import { validateXsd } from "@timbre/xsd";

/**
 * XSD-validates an envelope with `@timbre/xsd` against the SII's schemas (bundled, or `TIMBRE_SII_SCHEMAS`); the
 * sandbox checked they were there when it was created.
 *
 * @example
 * const errors = await checkXsd(bytes, "EnvioDTE"); // [] when valid
 */
export async function checkXsd(bytes: Uint8Array, root: "EnvioDTE" | "EnvioBOLETA"): Promise<string[]> {
  const result = await validateXsd(bytes, root);
  return result.valid ? [] : result.errors;
}

/**
 * XSD validation of SII documents against the official schemas (`shared/sii/schemas`), with xmllint-wasm
 * (libxml2 compiled to WebAssembly; no native binary needed).
 *
 * Not part of `@timbre/core` (it reads files): use it from tests, the sandbox and tooling.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { validateXML, type XMLFileInfo } from "xmllint-wasm";

/** Root element to validate as. `DTE` uses `DTE_v10.xsd` (boletas validate only inside `EnvioBOLETA`). */
export type XsdRoot = "EnvioDTE" | "EnvioBOLETA" | "DTE";

/** Result of {@link validateXsd}: `errors` are xmllint's messages prefixed with their line number. */
export interface XsdResult {
  valid: boolean;
  errors: string[];
}

/** Main schema and the files it includes/imports, per root (see `schemas/README.md` include graph). */
const SCHEMA_SETS: Record<XsdRoot, { main: string; preload: string[] }> = {
  EnvioDTE: { main: "EnvioDTE_v10.xsd", preload: ["DTE_v10.xsd", "SiiTypes_v10.xsd", "xmldsignature_v10.xsd"] },
  DTE: { main: "DTE_v10.xsd", preload: ["SiiTypes_v10.xsd", "xmldsignature_v10.xsd"] },
  EnvioBOLETA: { main: "EnvioBOLETA_v11.xsd", preload: ["xmldsignature_v10.xsd"] },
};

const SCHEMA_MARKER = "EnvioDTE_v10.xsd";

let cachedDir: string | null | undefined;
const schemaCache = new Map<string, Uint8Array>();

function isSchemasDir(dir: string): boolean {
  return existsSync(join(dir, SCHEMA_MARKER));
}

/**
 * Absolute path of the official SII schemas folder: `$TIMBRE_SII_SCHEMAS` if set, else the first
 * `shared/sii/schemas` or `../shared/sii/schemas` found walking up from this package's directory.
 * Throws if none is found (see {@link schemasAvailable}).
 *
 * @example
 * ```ts
 * schemasDir(); // "/work/shared/sii/schemas"
 * ```
 */
export function schemasDir(): string {
  const found = findSchemasDir();
  if (found === null) {
    throw new Error(
      "SII schemas not found: set TIMBRE_SII_SCHEMAS or place them at shared/sii/schemas next to the repository",
    );
  }
  return found;
}

function findSchemasDir(): string | null {
  const fromEnv = process.env["TIMBRE_SII_SCHEMAS"];
  if (fromEnv !== undefined && fromEnv !== "") {
    // An explicit setting wins and is not second-guessed by a walk.
    return isSchemasDir(fromEnv) ? resolve(fromEnv) : null;
  }
  if (cachedDir !== undefined) return cachedDir;
  let dir = dirname(fileURLToPath(import.meta.url));
  cachedDir = null;
  for (;;) {
    for (const candidate of [join(dir, "shared", "sii", "schemas"), join(dir, "..", "shared", "sii", "schemas")]) {
      if (isSchemasDir(candidate)) {
        cachedDir = resolve(candidate);
        return cachedDir;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * Whether the official schemas can be found (tests skip XSD checks when they cannot).
 *
 * @example
 * ```ts
 * test.skipIf(!schemasAvailable())("validates", async () => { … });
 * ```
 */
export function schemasAvailable(): boolean {
  return findSchemasDir() !== null;
}

function loadSchema(dir: string, name: string): XMLFileInfo {
  const path = join(dir, name);
  let bytes = schemaCache.get(path);
  if (bytes === undefined) {
    bytes = new Uint8Array(readFileSync(path));
    schemaCache.set(path, bytes);
  }
  return { fileName: name, contents: bytes };
}

/** Encodings the WebAssembly libxml2 decodes itself (it is built without iconv: no windows-1252). */
const NATIVE_ENCODINGS = /^(utf-?8|utf-?16(le|be)?|iso-8859-1|iso_8859-1|iso8859-1|latin1|us-ascii|ascii)$/i;
const ISO_8859_1 = /^(iso-8859-1|iso_8859-1|iso8859-1|latin1)$/i;
const DECLARATION = /^\uFEFF?<\?xml[^>]*?encoding\s*=\s*["']([^"']+)["'][^>]*\?>/;

/**
 * Bytes handed to libxml2. Byte input in an encoding libxml2 knows is passed untouched; other byte input
 * (real DTEs declare `windows-1252`) is decoded and re-declared as UTF-8. A string is a decoded text:
 * re-encode it as ISO-8859-1 when so declared and every character fits (the exact bytes of the file), else
 * declare and encode UTF-8. (Passing a string straight to xmllint-wasm writes UTF-8 bytes under an
 * ISO-8859-1 declaration, which garbles every non-ASCII character and miscounts lengths.)
 */
function toBytes(xml: string | Uint8Array): Uint8Array {
  let text: string;
  if (typeof xml === "string") {
    text = xml;
  } else {
    const head = String.fromCharCode(...xml.subarray(0, 200));
    const encoding = DECLARATION.exec(head)?.[1];
    if (encoding === undefined || NATIVE_ENCODINGS.test(encoding)) return xml;
    text = new TextDecoder(encoding).decode(xml); // throws RangeError on an unknown label
  }
  const declaration = DECLARATION.exec(text);
  const encoding = declaration?.[1];
  // eslint-disable-next-line no-control-regex
  if (encoding !== undefined && ISO_8859_1.test(encoding) && !/[^\u0000-\u00ff]/.test(text)) {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  }
  const utf8 = declaration ? text.replace(declaration[0], '<?xml version="1.0" encoding="UTF-8"?>') : text;
  return new TextEncoder().encode(utf8.replace(/^\uFEFF/, ""));
}

/**
 * Validates an XML document against the SII's official XSD for `root`.
 * Pass the exact bytes of a file (ISO-8859-1 as the SII requires) whenever you have them.
 *
 * @example
 * ```ts
 * const bytes = readFileSync("EnvioDTE.xml");
 * const { valid, errors } = await validateXsd(bytes, "EnvioDTE");
 * if (!valid) console.error(errors.join("\n"));
 * ```
 */
export async function validateXsd(xml: string | Uint8Array, root: XsdRoot): Promise<XsdResult> {
  const set = SCHEMA_SETS[root];
  if (set === undefined) throw new Error(`Unknown XSD root ${String(root)}`);
  const dir = schemasDir();
  const result = await validateXML({
    xml: { fileName: "document.xml", contents: toBytes(xml) },
    schema: loadSchema(dir, set.main),
    preload: set.preload.map((name) => loadSchema(dir, name)),
  });
  const errors = result.errors
    .map((e) => (e.loc ? `line ${e.loc.lineNumber}: ${e.message}` : e.message).trim())
    .filter((message) => message !== "" && !/fails to validate$/.test(message));
  if (!result.valid && errors.length === 0) errors.push(result.rawOutput.trim() || "document fails to validate");
  return { valid: result.valid, errors };
}

/**
 * XSD validation of SII documents against the official schemas (bundled in `@timbre/sii-data`, or the folder
 * `TIMBRE_SII_SCHEMAS` names), with the system's libxml2 when it can be loaded (`libxml2.ts`: schemas parsed once),
 * else xmllint-wasm (libxml2 compiled to WebAssembly; no native library needed, but far dearer per call).
 *
 * Not part of `@timbre/core` (it reads files): use it from tests, the sandbox and tooling.
 */
import { schemasDir as bundledSchemasDir } from "@timbre/sii-data";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { validateXML, type XMLFileInfo } from "xmllint-wasm";
import { nativeValidator } from "./libxml2.js";

/** Root element to validate as. `DTE` uses `DTE_v10.xsd` (boletas validate only inside `EnvioBOLETA`). */
export type XsdRoot = "EnvioDTE" | "EnvioBOLETA" | "DTE" | "RespuestaDTE" | "EnvioRecibos" | "RESULTADO_ENVIO";

/**
 * Which libxml2 validates: the system's (`libxml2`), the WebAssembly build (`wasm`), or the first of them there is
 * (default). Tests pin one to prove both give the same answers.
 */
export type XsdEngine = "libxml2" | "wasm";

/** Whether the system's libxml2 is there (the fast engine). */
export function nativeXsdAvailable(): boolean {
  return nativeValidator() !== null;
}

/** Result of {@link validateXsd}: `errors` are xmllint's messages prefixed with their line number. */
export interface XsdResult {
  valid: boolean;
  errors: string[];
}

/** Main schema and the files it includes/imports, per root (the include graph is in `@timbre/sii-data`'s README). */
const SCHEMA_SETS: Record<XsdRoot, { main: string; preload: string[] }> = {
  EnvioDTE: { main: "EnvioDTE_v10.xsd", preload: ["DTE_v10.xsd", "SiiTypes_v10.xsd", "xmldsignature_v10.xsd"] },
  DTE: { main: "DTE_v10.xsd", preload: ["SiiTypes_v10.xsd", "xmldsignature_v10.xsd"] },
  EnvioBOLETA: { main: "EnvioBOLETA_v11.xsd", preload: ["xmldsignature_v10.xsd"] },
  // Intercambio (BRIEF-intercambio §2, §5): the receiver's answers and the SII's review mail.
  RespuestaDTE: { main: "RespuestaEnvioDTE_v10.xsd", preload: ["SiiTypes_v10.xsd", "xmldsignature_v10.xsd"] },
  EnvioRecibos: { main: "EnvioRecibos_v10.xsd", preload: ["Recibos_v10.xsd", "SiiTypes_v10.xsd", "xmldsignature_v10.xsd"] },
  RESULTADO_ENVIO: { main: "RespSII_v10.xsd", preload: [] },
};

/** Every file the schema sets load. */
const SCHEMA_FILES = [...new Set(Object.values(SCHEMA_SETS).flatMap((set) => [set.main, ...set.preload]))];

/** The setting that points at another schemas folder than the bundled one. */
export const SCHEMAS_SETTING = "TIMBRE_SII_SCHEMAS";

const schemaCache = new Map<string, Uint8Array>();

/** The folder in use (`$TIMBRE_SII_SCHEMAS`, else the bundled one) and the schema files missing from it. */
function lookUpSchemas(): { dir: string; fromSetting: boolean; missing: string[] } {
  const setting = process.env[SCHEMAS_SETTING]?.trim();
  const fromSetting = setting !== undefined && setting !== "";
  const dir = fromSetting ? resolve(setting) : bundledSchemasDir();
  return { dir, fromSetting, missing: SCHEMA_FILES.filter((name) => !existsSync(join(dir, name))) };
}

/**
 * Absolute path of the official SII schemas folder: `$TIMBRE_SII_SCHEMAS` if set, else the copy bundled in
 * `@timbre/sii-data`. Throws, naming the setting, when a schema file the validator loads is missing there.
 *
 * @example
 * ```ts
 * schemasDir(); // ".../packages/sii-data/schemas"
 * ```
 */
export function schemasDir(): string {
  const { dir, fromSetting, missing } = lookUpSchemas();
  if (missing.length > 0) {
    const where = fromSetting ? `${dir} (${SCHEMAS_SETTING})` : `${dir} (bundled with @timbre/sii-data)`;
    throw new Error(
      `SII schemas not found: ${where} lacks ${missing.join(", ")}; set ${SCHEMAS_SETTING} to a folder holding the SII's XSDs`,
    );
  }
  return dir;
}

/**
 * Whether the official schemas can be found (a process checks it when it starts, and refuses to start without them).
 *
 * @example
 * ```ts
 * if (!schemasAvailable()) schemasDir(); // throws the message naming TIMBRE_SII_SCHEMAS
 * ```
 */
export function schemasAvailable(): boolean {
  return lookUpSchemas().missing.length === 0;
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
export async function validateXsd(xml: string | Uint8Array, root: XsdRoot, options: { engine?: XsdEngine } = {}): Promise<XsdResult> {
  const set = SCHEMA_SETS[root];
  if (set === undefined) throw new Error(`Unknown XSD root ${String(root)}`);
  const dir = schemasDir();
  const native = options.engine === "wasm" ? null : nativeValidator();
  if (native) return native.validate(toBytes(xml), join(dir, set.main));
  if (options.engine === "libxml2") throw new Error("libxml2 could not be loaded");
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

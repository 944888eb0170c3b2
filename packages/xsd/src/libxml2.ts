/**
 * XSD validation with the system's libxml2 through `bun:ffi`: each schema set is parsed once per thread and kept,
 * so a validation costs the parse and check of the document only. xmllint-wasm (the fallback in `index.ts`) starts
 * a worker, compiles libxml2 and parses every schema again on each call, which made it hundreds of times dearer.
 * `null` when no libxml2 can be loaded (then the fallback runs); the answers are the same (`validate-xsd.test.ts`).
 */
import { CString, dlopen, FFIType, JSCallback, ptr, read, type Pointer } from "bun:ffi";

/** Sonames of libxml2 on Linux (2.14 and later, then earlier) and macOS. */
const LIBRARY_NAMES = ["libxml2.so.16", "libxml2.so.2", "libxml2.2.dylib", "/usr/lib/libxml2.2.dylib"];

/** `xmlParserOption`s: no network access (a document cannot make the validator fetch anything). */
const XML_PARSE_NONET = 1 << 11;
/** `xmlErrorDomain` of the parser's well-formedness errors. */
const XML_FROM_PARSER = 1;
/** `xmlErrorLevel` from which a message counts (warnings do not). */
const XML_ERR_ERROR = 2;

const symbols = {
  xmlSchemaNewParserCtxt: { args: [FFIType.ptr], returns: FFIType.ptr },
  xmlSchemaSetParserStructuredErrors: { args: [FFIType.ptr, FFIType.function, FFIType.ptr], returns: FFIType.void },
  xmlSchemaParse: { args: [FFIType.ptr], returns: FFIType.ptr },
  xmlSchemaFreeParserCtxt: { args: [FFIType.ptr], returns: FFIType.void },
  xmlSchemaNewValidCtxt: { args: [FFIType.ptr], returns: FFIType.ptr },
  xmlSchemaSetValidStructuredErrors: { args: [FFIType.ptr, FFIType.function, FFIType.ptr], returns: FFIType.void },
  xmlSchemaValidateDoc: { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  xmlSetStructuredErrorFunc: { args: [FFIType.ptr, FFIType.function], returns: FFIType.void },
  xmlReadMemory: { args: [FFIType.ptr, FFIType.i32, FFIType.ptr, FFIType.ptr, FFIType.i32], returns: FFIType.ptr },
  xmlFreeDoc: { args: [FFIType.ptr], returns: FFIType.void },
} as const;

type Library = ReturnType<typeof dlopen<typeof symbols>>["symbols"];

/** A validator bound to one thread's libxml2: `validate(bytes, mainSchemaPath)` → valid, and the error messages. */
export interface NativeValidator {
  validate(bytes: Uint8Array, schemaPath: string): { valid: boolean; errors: string[] };
}

let loaded: NativeValidator | null | undefined;

/** This thread's libxml2 validator, or `null` when the library is not there. */
export function nativeValidator(): NativeValidator | null {
  if (loaded === undefined) loaded = load();
  return loaded;
}

function load(): NativeValidator | null {
  let lib: Library | null = null;
  for (const name of LIBRARY_NAMES) {
    try {
      lib = dlopen(name, symbols).symbols;
      break;
    } catch {
      /* try the next name */
    }
  }
  if (lib === null) return null;
  const xml = lib;
  // libxml2 reports each error through this callback while a call runs (same thread, synchronously).
  let errors: string[] = [];
  const onError = new JSCallback(
    (_user: Pointer | null, error: Pointer | null) => {
      if (error === null) return;
      // struct _xmlError { int domain; int code; char *message; int level; char *file; int line; ... }
      if (read.i32(error, 16) < XML_ERR_ERROR) return;
      const domain = read.i32(error, 0);
      const message = read.ptr(error, 8);
      const line = read.i32(error, 32);
      const text = message ? new CString(message as unknown as Pointer).toString().trim() : "error";
      errors.push(`line ${line}: ${domain === XML_FROM_PARSER ? `parser error : ${text}` : text}`);
    },
    { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.void },
  );
  const handler = onError.ptr;
  if (handler === null) return null;
  const contexts = new Map<string, Pointer>();
  const contextFor = (schemaPath: string): Pointer => {
    const known = contexts.get(schemaPath);
    if (known) return known;
    errors = [];
    const path = Buffer.from(`${schemaPath}\0`);
    const parser = xml.xmlSchemaNewParserCtxt(ptr(path));
    if (!parser) throw new Error(`libxml2 could not open ${schemaPath}`);
    xml.xmlSchemaSetParserStructuredErrors(parser, handler, null);
    const schema = xml.xmlSchemaParse(parser);
    xml.xmlSchemaFreeParserCtxt(parser);
    if (!schema) throw new Error(`libxml2 could not parse ${schemaPath}: ${errors.join("; ")}`);
    const context = xml.xmlSchemaNewValidCtxt(schema) as Pointer | null;
    if (!context) throw new Error("libxml2 could not allocate a validation context");
    xml.xmlSchemaSetValidStructuredErrors(context, handler, null);
    contexts.set(schemaPath, context);
    return context;
  };
  return {
    validate(bytes, schemaPath) {
      const context = contextFor(schemaPath);
      errors = [];
      xml.xmlSetStructuredErrorFunc(null, handler);
      const doc = bytes.length === 0 ? null : xml.xmlReadMemory(ptr(bytes), bytes.length, ptr(Buffer.from("document.xml\0")), null, XML_PARSE_NONET);
      if (!doc) return { valid: false, errors: errors.length > 0 ? errors : ["line 1: parser error : the document is not well-formed XML"] };
      try {
        const status = xml.xmlSchemaValidateDoc(context, doc);
        if (status !== 0 && errors.length === 0) errors.push(status < 0 ? "libxml2 internal validation error" : "document fails to validate");
        return { valid: status === 0, errors: status === 0 ? [] : errors };
      } finally {
        xml.xmlFreeDoc(doc);
      }
    },
  };
}

import { createPrivateKey, createPublicKey } from "node:crypto";
import type { Element } from "@xmldom/xmldom";
import { TimbreError } from "../errors/index.js";
import { decodeXmlBytes } from "./latin1.js";
import { childElements, findElement, parseSafeXml } from "./safe-xml.js";
import { readCafElement } from "./read-caf-element.js";
import { sameRsaPublicKey } from "./same-rsa-key.js";
import type { Caf, EmbeddedCaf } from "./types.js";

function toText(input: Uint8Array | string): string {
  return typeof input === "string" ? input : decodeXmlBytes(input);
}

function pemChild(root: Element, name: string): string {
  const el = childElements(root).find((e) => (e.localName ?? e.nodeName) === name);
  const value = (el?.textContent ?? "").trim();
  if (value === "") {
    throw new TimbreError("CAF_INVALID", `missing AUTORIZACION/${name}`, {
      details: { reason: "field", field: `AUTORIZACION/${name}` },
    });
  }
  return value;
}

function loadKey<T>(load: () => T, field: string): T {
  try {
    return load();
  } catch (cause) {
    throw new TimbreError("CAF_INVALID", `${field} is not a usable RSA key`, {
      details: { reason: "field", field },
      cause,
    });
  }
}

/**
 * Parses a CAF file (`<AUTORIZACION><CAF>…</CAF><RSASK>…</RSASK><RSAPUBK>…</RSAPUBK></AUTORIZACION>`).
 * Bytes are read as ISO-8859-1 (UTF-8 only with a BOM or an explicit declaration). Any `<!DOCTYPE`/`<!ENTITY`
 * is refused before parsing (`CAF_UNSAFE_XML`); malformed or incomplete files throw `CAF_INVALID`
 * (details.reason `malformed`, `structure`, `field` + `field`, `unsupported_key`). `RSAPUBK` differing from
 * `RSAPK` throws `CAF_INVALID` reason `key_mismatch`. Does NOT check the SII signature nor that `RSASK` matches:
 * call {@link verifyCaf} next.
 *
 * @example
 * const caf = parseCaf(await Bun.file("CAF-T33.xml").bytes());
 * verifyCaf(caf, [siiProductionKey]);
 * caf.tipo; caf.desde; caf.hasta; // 33, 1, 100
 */
export function parseCaf(input: Uint8Array | string): Caf {
  const doc = parseSafeXml(toText(input));
  const root = doc.documentElement;
  if (!root || (root.localName ?? root.nodeName) !== "AUTORIZACION") {
    throw new TimbreError("CAF_INVALID", "root element must be AUTORIZACION", { details: { reason: "structure" } });
  }
  const cafElement = childElements(root).find((e) => (e.localName ?? e.nodeName) === "CAF");
  if (!cafElement) {
    throw new TimbreError("CAF_INVALID", "missing AUTORIZACION/CAF", { details: { reason: "structure" } });
  }
  const embedded = readCafElement(cafElement);
  const privateKey = loadKey(() => createPrivateKey(pemChild(root, "RSASK")), "AUTORIZACION/RSASK");
  if (privateKey.asymmetricKeyType !== "rsa") {
    throw new TimbreError("CAF_INVALID", "RSASK is not an RSA key", { details: { reason: "field", field: "AUTORIZACION/RSASK" } });
  }
  const rsapubk = loadKey(() => createPublicKey(pemChild(root, "RSAPUBK")), "AUTORIZACION/RSAPUBK");
  if (!sameRsaPublicKey(rsapubk, embedded.publicKey)) {
    throw new TimbreError("CAF_INVALID", "RSAPUBK does not match DA/RSAPK", {
      details: { reason: "key_mismatch", field: "AUTORIZACION/RSAPUBK" },
    });
  }
  return { ...embedded, privateKey };
}

/**
 * Reads the public, signed part of a CAF (`<CAF version="1.0"><DA>…</DA><FRMA>…</FRMA></CAF>`) from any XML
 * that contains one: a CAF file, a TED, a DTE or an envelope (the first `CAF` element in document order).
 * Same safety rules and errors as {@link parseCaf}. Use with {@link verifyCafSignature}.
 *
 * @example
 * const embedded = parseEmbeddedCaf(dteBytes);
 * verifyCafSignature(embedded, [siiProductionKey]); // the SII signed this CAF
 */
export function parseEmbeddedCaf(input: Uint8Array | string): EmbeddedCaf {
  const doc = parseSafeXml(toText(input));
  const root = doc.documentElement;
  const cafElement = root ? findElement(root, "CAF") : null;
  if (!cafElement) throw new TimbreError("CAF_INVALID", "no CAF element found", { details: { reason: "structure" } });
  return readCafElement(cafElement);
}

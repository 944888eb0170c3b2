/**
 * Reads the `<CAF version="1.0"><DA>…</DA><FRMA>…</FRMA></CAF>` element (the part the SII signs, present both in
 * a CAF file and inside every TED).
 */
import { createPublicKey, type KeyObject } from "node:crypto";
import type { Element } from "@xmldom/xmldom";
import { TimbreError } from "../errors/index.js";
import { tryParseRut } from "../rut/index.js";
import { childElements } from "./safe-xml.js";
import { flattenElement } from "./flatten.js";
import type { EmbeddedCaf } from "./types.js";

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function invalid(message: string, field?: string): TimbreError {
  return new TimbreError("CAF_INVALID", message, { details: field ? { reason: "field", field } : { reason: "structure" } });
}

function child(parent: Element, name: string, path: string): Element {
  const found = childElements(parent).find((e) => (e.localName ?? e.nodeName) === name);
  if (!found) throw invalid(`missing ${path}/${name}`, `${path}/${name}`);
  return found;
}

function text(parent: Element, name: string, path: string): string {
  const value = (child(parent, name, path).textContent ?? "").trim();
  if (value === "") throw invalid(`empty ${path}/${name}`, `${path}/${name}`);
  return value;
}

function integer(parent: Element, name: string, path: string): number {
  const value = text(parent, name, path);
  if (!/^\d{1,15}$/.test(value)) throw invalid(`${path}/${name} is not a non-negative integer: ${value}`, `${path}/${name}`);
  return Number(value);
}

function base64(value: string, field: string): string {
  const clean = value.replace(/\s+/g, "");
  if (!BASE64.test(clean) || clean.length % 4 !== 0) throw invalid(`${field} is not base64`, field);
  return clean;
}

function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

function publicKeyFromRsapk(modulusB64: string, exponentB64: string): KeyObject {
  const toUrl = (b64: string) => Buffer.from(b64, "base64").toString("base64url");
  try {
    return createPublicKey({ key: { kty: "RSA", n: toUrl(modulusB64), e: toUrl(exponentB64) }, format: "jwk" });
  } catch (cause) {
    throw new TimbreError("CAF_INVALID", "RSAPK is not a usable RSA public key", {
      details: { reason: "field", field: "DA/RSAPK" },
      cause,
    });
  }
}

/** Reads and structurally checks a `CAF` element (throws `CAF_INVALID`). */
export function readCafElement(caf: Element): EmbeddedCaf {
  if ((caf.localName ?? caf.nodeName) !== "CAF") throw invalid(`expected CAF element, got ${caf.nodeName}`);
  const da = child(caf, "DA", "CAF");
  const frmaElement = child(caf, "FRMA", "CAF");
  const algoritmo = frmaElement.getAttribute("algoritmo");
  if (algoritmo !== null && algoritmo !== "SHA1withRSA") {
    throw invalid(`unsupported FRMA algorithm ${algoritmo}`, "CAF/FRMA");
  }
  const rutText = text(da, "RE", "DA");
  const rut = tryParseRut(rutText);
  if (!rut) throw invalid(`DA/RE is not a valid RUT: ${rutText}`, "DA/RE");
  const rng = child(da, "RNG", "DA");
  const desde = integer(rng, "D", "DA/RNG");
  const hasta = integer(rng, "H", "DA/RNG");
  if (desde < 1 || hasta < desde) throw invalid(`invalid folio range ${desde}–${hasta}`, "DA/RNG");
  const fechaAutorizacion = text(da, "FA", "DA");
  if (!isIsoDate(fechaAutorizacion)) throw invalid(`DA/FA is not a date: ${fechaAutorizacion}`, "DA/FA");
  const hasDsa = childElements(da).some((e) => (e.localName ?? e.nodeName) === "DSAPK");
  if (hasDsa) {
    throw new TimbreError("CAF_INVALID", "DSA CAF keys (DSAPK) are not supported", {
      details: { reason: "unsupported_key" },
    });
  }
  const rsapk = child(da, "RSAPK", "DA");
  const m = base64(text(rsapk, "M", "DA/RSAPK"), "DA/RSAPK/M");
  const e = base64(text(rsapk, "E", "DA/RSAPK"), "DA/RSAPK/E");
  const frma = base64(frmaElement.textContent ?? "", "CAF/FRMA");
  return {
    rut: `${rut.body}-${rut.dv}`,
    razonSocial: (child(da, "RS", "DA").textContent ?? "").trim(),
    tipo: integer(da, "TD", "DA"),
    desde,
    hasta,
    fechaAutorizacion,
    idk: integer(da, "IDK", "DA"),
    cafXml: flattenElement(caf),
    daXml: flattenElement(da),
    frma,
    publicKey: publicKeyFromRsapk(m, e),
  };
}

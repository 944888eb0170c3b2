/**
 * Fixtures for the XML/signature tests: the synthetic sample certificate (packages/sii-data/fixtures/synthetic/test-cert.p12,
 * password test1234, read with node-forge) and CAFs — the synthetic sample CAFs for 33/39, issued ones otherwise.
 */
import { createPrivateKey } from "node:crypto";
import forge from "node-forge";
import { issueCaf } from "../../src/caf/issue-caf.js";
import { parseCaf } from "../../src/caf/parse-caf.js";
import type { Caf } from "../../src/caf/types.js";
import type { DocumentInput, Tipo } from "../../src/document/types.js";
import type { SigningIdentity } from "../../src/signature/types.js";
import { generateAuthorityKey } from "../../src/testing/generate-authority-key.js";
import { readSiiData } from "./sii-data.js";

let identity: SigningIdentity | undefined;

/** The synthetic samples' signing identity (RSA-2048 self-signed certificate). */
export function sampleIdentity(): SigningIdentity {
  if (identity) return identity;
  const der = forge.util.binary.raw.encode(readSiiData("fixtures/synthetic/test-cert.p12"));
  const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), "test1234");
  const keyOid = forge.pki.oids.pkcs8ShroudedKeyBag ?? "1.2.840.113549.1.12.10.1.2";
  const certOid = forge.pki.oids.certBag ?? "1.2.840.113549.1.12.10.1.3";
  const keyBag = p12.getBags({ bagType: keyOid })[keyOid]?.[0];
  const certBag = p12.getBags({ bagType: certOid })[certOid]?.[0];
  if (!keyBag?.key || !certBag?.cert) throw new Error("test-cert.p12 lacks key or certificate");
  const privateKey = createPrivateKey(forge.pki.privateKeyToPem(keyBag.key));
  const certDer = forge.asn1.toDer(forge.pki.certificateToAsn1(certBag.cert)).getBytes();
  identity = { privateKey, certificateDer: new Uint8Array(Buffer.from(certDer, "binary")) };
  return identity;
}

const authority = generateAuthorityKey(999);
const cafs = new Map<number, Caf>();

/** A CAF for `tipo` covering folios 1–100 of 76192083-9 (the sample files for 33 and 39). */
export function cafFor(tipo: Tipo): Caf {
  const known = cafs.get(tipo);
  if (known) return known;
  let caf: Caf;
  if (tipo === 33 || tipo === 39) caf = parseCaf(readSiiData(`fixtures/synthetic/CAF-T${tipo}-synthetic.xml`));
  else {
    caf = issueCaf({ authority, rut: "76192083-9", razonSocial: "SASCO SpA", tipo, desde: 1, hasta: 100, fechaAutorizacion: "2026-01-15" }).caf;
  }
  cafs.set(tipo, caf);
  return caf;
}

export const ISSUER: DocumentInput["issuer"] = {
  rut: "76192083-9",
  razonSocial: "SASCO SpA",
  giro: "Tecnología",
  acteco: [726000],
  direccion: "Santa Cruz",
  comuna: "Santa Cruz",
};

/** The input that reproduces packages/sii-data/fixtures/synthetic/EnvioDTE-T33F1.xml. */
export const SAMPLE_T33: DocumentInput = {
  tipo: 33,
  folio: 1,
  fecha: "2026-01-15",
  formaPago: 1,
  issuer: ISSUER,
  receiver: {
    rut: "60803000-K",
    razonSocial: "Servicio de Impuestos Internos & Cía",
    giro: "Gobierno",
    direccion: "Teatinos 120",
    comuna: "Santiago",
  },
  items: [
    { nombre: 'Cajón "Grande" & tapa', cantidad: 3, unidad: "UN", precio: 10990, descuentoPorcentaje: 10 },
    { nombre: "Servicio d'instalación", cantidad: 1, unidad: "UN", precio: 25000 },
  ],
};

/** The input that reproduces packages/sii-data/fixtures/synthetic/EnvioBOLETA-T39F1.xml (gross prices). */
export const SAMPLE_T39: DocumentInput = {
  tipo: 39,
  folio: 1,
  fecha: "2026-01-15",
  preciosBrutos: true,
  issuer: ISSUER,
  receiver: { rut: "66666666-6", razonSocial: "" },
  items: [
    { nombre: "Café ñandú", cantidad: 2, precio: 1990 },
    { nombre: "Pan", cantidad: 3, precio: 350 },
  ],
};

export const SAMPLE_TIMESTAMP = "2026-01-15T10:11:12";
export const SAMPLE_RESOLUTION = { numero: 0, fecha: "2014-08-22" };

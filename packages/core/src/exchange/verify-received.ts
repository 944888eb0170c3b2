/**
 * What a receiver verifies in an `EnvioDTE` a supplier sent it (BRIEF-intercambio §4.1): the envelope as a whole
 * (safe XML, shape, `SetDTE` signature in context, addressed to the receiver), then each DTE on its own (its
 * signature in the variants the SII accepts, its TED, its CAF against the SII authority of the environment, its
 * receptor and emisor). Schema validation reads files and is the caller's (see `cleanForSchema`).
 */
import { parseEmbeddedCaf } from "../caf/parse-caf.js";
import type { AuthorityKey } from "../caf/types.js";
import { verifyCafSignature } from "../caf/verify-caf.js";
import { isTimbreError } from "../errors/index.js";
import { isValidRut, normalizeRut } from "../rut/index.js";
import { verifyDteText } from "../signature/verify-dte.js";
import { cutOutDtes } from "../signature/verify-envelope.js";
import { DSIG_NS, verifySignatureOver, type VerifyOptions } from "../signature/verify-xmldsig.js";
import { childElements, childText, decodeXml, messageOf } from "../signature/verify-xml.js";
import { parseXmlTree, type XmlDocument, type XmlElement } from "../signature/xml-tree.js";
import { readReceivedDocument, type ReceivedDocumentFields } from "./read-received-document.js";

/** Why a whole envelope is refused (API.md §12; `schema` is the caller's XSD check). */
export type EnvelopeFailure = "format" | "schema" | "signature" | "not_addressed";

/**
 * How a DTE's signature verified (BRIEF-intercambio §4.2, tried in this order): cut out as its own document (the
 * SII's way), inside the envelope, cut out with Exclusive C14N, cut out with its inherited namespaces stripped.
 */
export type SignatureVariant = "separado" | "en_contexto" | "exclusiva" | "sin_heredados";

/** Per check: `"ok"` or the failure's short name. */
export interface ReceivedVerification {
  firma: "ok" | "invalida";
  /** Which variant matched (absent when none did). */
  firma_variante?: SignatureVariant;
  timbre: "ok" | "invalido";
  caf: "ok" | "autoridad_desconocida" | "firma_invalida" | "ilegible";
  receptor: "ok" | "otro_receptor";
  emisor: "ok" | "distinto_de_caratula";
}

export interface ReceivedDte extends ReceivedDocumentFields {
  /** Position in the envelope, from 0. */
  index: number;
  /** The `<DTE>…</DTE>` text exactly as it stands in the envelope. */
  xml: string;
  /** `IDK` of its CAF (100 certification, 300 production, another: a sandbox), null when unreadable. */
  idk: number | null;
  verificacion: ReceivedVerification;
  /** Every check passed. */
  verified: boolean;
  /** Signature, TED and CAF passed: the issuer is who it says (an acuse may be sent). */
  authentic: boolean;
  errors: string[];
}

export interface ReceivedCaratula {
  rutEmisor: string;
  rutEnvia: string;
  rutReceptor: string;
  fchResol: string;
  nroResol: number;
  tmstFirmaEnv: string;
}

export type ReceivedEnvelopeResult =
  | { ok: true; caratula: ReceivedCaratula; setId: string; digest: string; documents: ReceivedDte[] }
  | { ok: false; reason: EnvelopeFailure; message: string };

export interface VerifyReceivedOptions {
  /** The receiving business's RUT: the envelope's `RutReceptor` and each DTE's `RUTRecep` must be it. */
  rutReceptor: string;
  /** SII authority keys of the environment (100 certification, 300 production, the sandbox's). */
  authorities: AuthorityKey[];
  /** See {@link VerifyOptions.crossCheck} (default true). */
  crossCheck?: boolean;
}

const refuse = (reason: EnvelopeFailure, message: string): ReceivedEnvelopeResult => ({ ok: false, reason, message });

const sameRut = (a: string, b: string): boolean => isValidRut(a) && isValidRut(b) && normalizeRut(a) === normalizeRut(b);

/** The DTE's signature verified inside the envelope (signers that signed it in place). */
function verifiesInContext(doc: XmlDocument, text: string, dte: XmlElement, options: VerifyOptions): boolean {
  const [signed, signature] = childElements(dte);
  if (signed === undefined || signature?.localName !== "Signature" || signature.namespaceURI !== DSIG_NS) return false;
  return verifySignatureOver(doc, text, signature, signed, [], options).length === 0;
}

function checkCaf(dteText: string, authorities: AuthorityKey[]): { caf: ReceivedVerification["caf"]; idk: number | null; error?: string } {
  let idk: number | null = null;
  try {
    const caf = parseEmbeddedCaf(dteText);
    idk = caf.idk;
    verifyCafSignature(caf, authorities);
    return { caf: "ok", idk };
  } catch (e) {
    const reason = isTimbreError(e) ? (e.details as { reason?: string } | undefined)?.reason : undefined;
    const caf = idk === null ? "ilegible" : reason === "unknown_authority" ? "autoridad_desconocida" : "firma_invalida";
    return { caf, idk, error: `CAF: ${messageOf(e)}` };
  }
}

/**
 * Verifies a received `EnvioDTE` (bytes as received, or decoded text). Envelope-level failures come back as
 * `{ ok: false, reason }` and nothing of the envelope should be kept; otherwise one {@link ReceivedDte} per DTE.
 *
 * @example
 * const r = verifyReceivedEnvelope(bytes, { rutReceptor: "76192083-9", authorities: [authorityKeyFromPem(100, pem)] });
 * if (r.ok) r.documents.map((d) => [d.tipo, d.folio, d.verified]);
 */
export function verifyReceivedEnvelope(xml: string | Uint8Array, options: VerifyReceivedOptions): ReceivedEnvelopeResult {
  const verifyOptions: VerifyOptions = { crossCheck: options.crossCheck !== false };
  let text: string;
  let doc: XmlDocument;
  try {
    text = decodeXml(xml);
    doc = parseXmlTree(text);
  } catch (e) {
    return refuse("format", `not well-formed or unsafe XML: ${messageOf(e)}`);
  }
  const root = doc.documentElement;
  if (root.localName !== "EnvioDTE") return refuse("format", `root element is ${root.localName}, not EnvioDTE`);
  const [setDte, signature, ...rest] = childElements(root);
  if (setDte?.localName !== "SetDTE" || signature?.localName !== "Signature" || signature.namespaceURI !== DSIG_NS || rest.length > 0) {
    return refuse("format", "EnvioDTE must contain exactly SetDTE followed by its Signature");
  }
  const [caratulaEl, ...dteElements] = childElements(setDte);
  if (caratulaEl?.localName !== "Caratula" || dteElements.length === 0 || dteElements.some((e) => e.localName !== "DTE")) {
    return refuse("format", "SetDTE must contain a Caratula followed by one or more DTE");
  }
  const envelopeErrors = verifySignatureOver(doc, text, signature, setDte, [], verifyOptions);
  if (envelopeErrors.length > 0) return refuse("signature", `envelope signature: ${envelopeErrors.join("; ")}`);
  const c = (name: string): string => (childText(caratulaEl, [name]) ?? "").trim();
  const caratula: ReceivedCaratula = {
    rutEmisor: c("RutEmisor"),
    rutEnvia: c("RutEnvia"),
    rutReceptor: c("RutReceptor"),
    fchResol: c("FchResol"),
    nroResol: Number(c("NroResol")) || 0,
    tmstFirmaEnv: c("TmstFirmaEnv"),
  };
  if (!sameRut(caratula.rutReceptor, options.rutReceptor)) {
    return refuse("not_addressed", `the envelope is addressed to ${caratula.rutReceptor || "nobody"}, not to ${normalizeRut(options.rutReceptor)}`);
  }
  const texts = cutOutDtes(text);
  if (texts.length !== dteElements.length) return refuse("format", "the DTE elements could not be cut out of the envelope's text");
  const digest = (childText(signature, ["SignedInfo", "Reference", "DigestValue"]) ?? "").replace(/\s+/g, "");

  const documents = dteElements.map((dte, index): ReceivedDte => {
    const dteText = texts[index] ?? "";
    const signed = childElements(dte)[0] ?? dte;
    const fields = readReceivedDocument(signed);
    const alone = verifyDteText(dteText, verifyOptions, false);
    const errors: string[] = [];
    let variant: SignatureVariant | undefined;
    if (alone.signature) variant = "separado";
    else if (verifiesInContext(doc, text, dte, verifyOptions)) variant = "en_contexto";
    else if (verifyDteText(dteText, { ...verifyOptions, canonicalization: "exclusive" }, false).signature) variant = "exclusiva";
    else if (verifyDteText(dteText, { ...verifyOptions, canonicalization: "without_inherited" }, false).signature) variant = "sin_heredados";
    else errors.push(...alone.errors.filter((e) => e.startsWith("signature:")));
    if (!alone.ted) errors.push(...alone.errors.filter((e) => e.startsWith("TED")));
    const caf = checkCaf(dteText, options.authorities);
    if (caf.error !== undefined) errors.push(caf.error);
    const receptorOk = sameRut(fields.receptor.rut, options.rutReceptor);
    if (!receptorOk) errors.push(`RUTRecep ${fields.receptor.rut} is not the receiving business`);
    const emisorOk = sameRut(fields.emisor.rut, caratula.rutEmisor);
    if (!emisorOk) errors.push(`RUTEmisor ${fields.emisor.rut} differs from the Caratula's ${caratula.rutEmisor}`);
    const verificacion: ReceivedVerification = {
      firma: variant !== undefined ? "ok" : "invalida",
      timbre: alone.ted ? "ok" : "invalido",
      caf: caf.caf,
      receptor: receptorOk ? "ok" : "otro_receptor",
      emisor: emisorOk ? "ok" : "distinto_de_caratula",
    };
    if (variant !== undefined) verificacion.firma_variante = variant;
    const authentic = variant !== undefined && alone.ted && caf.caf === "ok";
    return { ...fields, index, xml: dteText, idk: caf.idk, verificacion, verified: authentic && receptorOk && emisorOk, authentic, errors };
  });
  const seen = new Set<string>();
  for (const d of documents) {
    const key = `${d.tipo}/${d.folio}`;
    if (seen.has(key)) return refuse("format", `DTE ${key} appears more than once in the envelope`);
    seen.add(key);
  }
  return { ok: true, caratula, setId: setDte.getAttribute("ID") ?? "", digest, documents };
}

/**
 * The envelope text as the schema check should see it (BRIEF-intercambio §4.3): vendor `DocPersonalizado` elements
 * removed. For validation only — signatures are always checked on the text as received.
 *
 * @example
 * await validateXsd(cleanForSchema(text), "EnvioDTE");
 */
export function cleanForSchema(text: string): string {
  return text.replace(/<((?:[\w.-]+:)?)DocPersonalizado\b[\s\S]*?<\/\1DocPersonalizado\s*>/g, "");
}

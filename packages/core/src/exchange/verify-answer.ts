/**
 * What an issuer verifies in a receiver's answer to its documents (BRIEF-intercambio §2): a `RespuestaDTE` (acuse
 * `RecepcionEnvio`, or commercial `ResultadoDTE`) whose one signature covers `Resultado`, or an `EnvioRecibos` whose
 * every `Recibo/DocumentoRecibo` is signed (tried cut out first, then in context, §2.7) and whose `SetRecibos` is signed
 * in context. Every field returned is read from a signed element. Schema validation reads files and is the caller's.
 */
import { isValidRut, normalizeRut } from "../rut/index.js";
import type { AnsweredDocument } from "./answer-fields.js";
import { DSIG_NS, verifySignatureOver, type VerifyOptions } from "../signature/verify-xmldsig.js";
import { childElements, childText, decodeXml, messageOf } from "../signature/verify-xml.js";
import { parseXmlTree, type XmlDocument, type XmlElement } from "../signature/xml-tree.js";

/** Why an answer is refused as a whole. */
export type AnswerFailure = "format" | "signature";

/** The kind of answer, as `intercambio.respuestas[].tipo` (API.md §11). */
export type AnswerKind = "recepcion" | "resultado" | "recibo";

/** One document an answer speaks of, with the answer's code for it. */
export interface AnsweredEntry extends AnsweredDocument {
  kind: AnswerKind;
  /** `EstadoRecepDTE` (recepcion), `EstadoDTE` (resultado); 0 for a recibo, which has no code. */
  codigo: number;
  glosa: string;
}

export type VerifiedAnswer =
  | { ok: true; root: "RespuestaDTE" | "EnvioRecibos"; rutResponde: string; rutRecibe: string; entries: AnsweredEntry[] }
  | { ok: false; reason: AnswerFailure; message: string };

const refuse = (reason: AnswerFailure, message: string): VerifiedAnswer => ({ ok: false, reason, message });

const rutOf = (value: string): string => (isValidRut(value) ? normalizeRut(value) : value.toUpperCase());

/** The glosa of a recibo: it carries no code, only where the goods were received. */
const reciboGlosa = (recinto: string): string => `Recibo de mercaderias o servicios (Ley 19.983)${recinto ? `, recinto: ${recinto}` : ""}`;

function entryOf(el: XmlElement, kind: AnswerKind, tipoTag: string, codeTag: string | null, glosaTag: string | null): AnsweredEntry {
  const t = (name: string) => childText(el, [name]) ?? "";
  return {
    kind,
    tipo: Number(t(tipoTag)),
    folio: Number(t("Folio")),
    fecha: t("FchEmis"),
    rutEmisor: rutOf(t("RUTEmisor")),
    rutReceptor: rutOf(t("RUTRecep")),
    montoTotal: Number(t("MntTotal")),
    codigo: codeTag === null ? 0 : Number(t(codeTag)),
    glosa: glosaTag === null ? reciboGlosa(t("Recinto")) : t(glosaTag),
  };
}

/** The `Signature` child that follows `signed` (its last sibling), or null. */
function signatureAfter(parent: XmlElement, signed: XmlElement): XmlElement | null {
  const children = childElements(parent);
  const last = children[children.length - 1];
  return children.indexOf(signed) >= 0 && last?.localName === "Signature" && last.namespaceURI === DSIG_NS ? last : null;
}

function verifyRespuesta(doc: XmlDocument, text: string, root: XmlElement, options: VerifyOptions): VerifiedAnswer {
  const [resultado, signature, ...rest] = childElements(root);
  if (resultado?.localName !== "Resultado" || signature === undefined || rest.length > 0) return refuse("format", "RespuestaDTE must contain Resultado followed by its Signature");
  const errors = verifySignatureOver(doc, text, signature, resultado, [], options);
  if (errors.length > 0) return refuse("signature", `Resultado signature: ${errors.join("; ")}`);
  const [caratula, ...details] = childElements(resultado);
  if (caratula?.localName !== "Caratula") return refuse("format", "Resultado must start with its Caratula");
  const entries: AnsweredEntry[] = [];
  for (const d of details) {
    if (d.localName === "ResultadoDTE") entries.push(entryOf(d, "resultado", "TipoDTE", "EstadoDTE", "EstadoDTEGlosa"));
    else if (d.localName === "RecepcionEnvio") {
      for (const r of childElements(d).filter((e) => e.localName === "RecepcionDTE")) entries.push(entryOf(r, "recepcion", "TipoDTE", "EstadoRecepDTE", "RecepDTEGlosa"));
    }
  }
  return { ok: true, root: "RespuestaDTE", rutResponde: rutOf(childText(caratula, ["RutResponde"]) ?? ""), rutRecibe: rutOf(childText(caratula, ["RutRecibe"]) ?? ""), entries };
}

/** Markup tokens (comments, CDATA, PIs, declarations skipped; attribute values may contain `>`). */
const TOKEN = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<![^>]*>|<(\/?)([^\s/>]+)(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*(\/?)>/g;

/** The raw text of every `Recibo` child of `SetRecibos` (depth 3), exactly as it stands. */
function cutOutRecibos(text: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  let start = -1;
  for (const m of text.matchAll(TOKEN)) {
    const name = m[2];
    if (name === undefined) continue;
    const local = name.includes(":") ? name.slice(name.indexOf(":") + 1) : name;
    if (m[1] === "/") {
      if (local === "Recibo" && stack.length === 3 && start >= 0) out.push(text.slice(start, (m.index ?? 0) + m[0].length));
      stack.pop();
    } else if (m[3] !== "/") {
      if (local === "Recibo" && stack.length === 2 && stack[1] === "SetRecibos") start = m.index ?? 0;
      stack.push(local);
    }
  }
  return out;
}

/** A Recibo's signature over its DocumentoRecibo, cut out as its own document (the usual layout) or in context. */
function reciboVerifies(doc: XmlDocument, text: string, recibo: XmlElement, cutOut: string | undefined, options: VerifyOptions): boolean {
  if (cutOut !== undefined) {
    try {
      const alone = parseXmlTree(cutOut);
      const [documento, signature] = childElements(alone.documentElement);
      if (documento?.localName === "DocumentoRecibo" && signature !== undefined && verifySignatureOver(alone, cutOut, signature, documento, [], options).length === 0) return true;
    } catch {
      // not readable on its own: try in context
    }
  }
  const [documento, signature] = childElements(recibo);
  return documento?.localName === "DocumentoRecibo" && signature !== undefined && verifySignatureOver(doc, text, signature, documento, [], options).length === 0;
}

function verifyRecibos(doc: XmlDocument, text: string, root: XmlElement, options: VerifyOptions): VerifiedAnswer {
  const [set, signature, ...rest] = childElements(root);
  if (set?.localName !== "SetRecibos" || signature === undefined || rest.length > 0) return refuse("format", "EnvioRecibos must contain SetRecibos followed by its Signature");
  const errors = verifySignatureOver(doc, text, signature, set, [], options);
  if (errors.length > 0) return refuse("signature", `SetRecibos signature: ${errors.join("; ")}`);
  const [caratula, ...recibos] = childElements(set);
  if (caratula?.localName !== "Caratula" || recibos.length === 0 || recibos.some((r) => r.localName !== "Recibo")) return refuse("format", "SetRecibos must contain a Caratula followed by one or more Recibo");
  const texts = cutOutRecibos(text);
  const entries: AnsweredEntry[] = [];
  for (const [i, recibo] of recibos.entries()) {
    const documento = childElements(recibo)[0];
    if (documento === undefined || signatureAfter(recibo, documento) === null || !reciboVerifies(doc, text, recibo, texts.length === recibos.length ? texts[i] : undefined, options)) {
      return refuse("signature", `Recibo ${i + 1}: its DocumentoRecibo signature does not verify`);
    }
    entries.push(entryOf(documento, "recibo", "TipoDoc", null, null));
  }
  return { ok: true, root: "EnvioRecibos", rutResponde: rutOf(childText(caratula, ["RutResponde"]) ?? ""), rutRecibe: rutOf(childText(caratula, ["RutRecibe"]) ?? ""), entries };
}

/**
 * Verifies a receiver's answer (bytes as received, or decoded text): safe XML (no DTD), shape, every signature.
 * On success, who answered (`rutResponde`), to whom (`rutRecibe`) and one entry per document named; the caller
 * still checks that each entry matches one of its own documents (receiver, tipo, folio, date and total).
 *
 * @example
 * const r = verifyReceiverAnswer(bytes);
 * if (r.ok) r.entries.map((e) => [e.kind, e.tipo, e.folio, e.codigo]);
 */
export function verifyReceiverAnswer(xml: string | Uint8Array, options: VerifyOptions = {}): VerifiedAnswer {
  let text: string;
  let doc: XmlDocument;
  try {
    text = decodeXml(xml);
    doc = parseXmlTree(text);
  } catch (e) {
    return refuse("format", `not well-formed or unsafe XML: ${messageOf(e)}`);
  }
  const root = doc.documentElement;
  if (root.localName === "RespuestaDTE") return verifyRespuesta(doc, text, root, options);
  if (root.localName === "EnvioRecibos") return verifyRecibos(doc, text, root, options);
  return refuse("format", `root element is ${root.localName}, not RespuestaDTE or EnvioRecibos`);
}

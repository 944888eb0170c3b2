/**
 * Independent checks for tests: XMLDSig verification with xmldsigjs and with xml-crypto, C14N with both, and the
 * TED FRMT with node:crypto. None of this shares code with src/.
 */
import { verify, webcrypto, type KeyObject } from "node:crypto";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as xmldom from "@xmldom/xmldom";
import { DOMParser, type Element } from "@xmldom/xmldom";
import { C14nCanonicalization, SignedXml } from "xml-crypto";
import * as xmldsig from "xmldsigjs";
import xpath from "xpath";

const DSIG = "http://www.w3.org/2000/09/xmldsig#";
xmldsig.Application.setEngine("NodeJS", webcrypto as unknown as Crypto);
await registerXmlCore();

/** xmldsigjs needs a DOM: register @xmldom/xmldom in the xml-core instance xmldsigjs itself imports. */
async function registerXmlCore(): Promise<void> {
  const own = fileURLToPath(import.meta.resolve("xmldsigjs"));
  const nested = join(dirname(own), "../../node_modules/xml-core/build/esm/index.js");
  const xmlCore = (await import(existsSync(nested) ? pathToFileURL(nested).href : "xml-core")) as {
    setNodeDependencies: (deps: Record<string, unknown>) => void;
  };
  xmlCore.setNodeDependencies({
    XMLSerializer: xmldom.XMLSerializer,
    DOMParser: xmldom.DOMParser,
    DOMImplementation: xmldom.DOMImplementation,
    xpath,
  });
}

/** The `Signature` child of the document element (DTE, EnvioDTE, EnvioBOLETA, getToken). */
function findRootSignature(root: { childNodes: ArrayLike<unknown> }): unknown {
  for (let i = root.childNodes.length - 1; i >= 0; i--) {
    const n = root.childNodes[i] as { nodeType: number; localName?: string; namespaceURI?: string | null };
    if (n.nodeType === 1 && n.localName === "Signature" && n.namespaceURI === DSIG) return n;
  }
  throw new Error("no Signature under the document element");
}

/** Verifies the document element's signature with xmldsigjs (key from KeyInfo). */
export async function verifyWithXmldsigjs(xml: string): Promise<boolean> {
  const doc = xmldsig.Parse(xml);
  const signed = new xmldsig.SignedXml(doc);
  signed.LoadXml(findRootSignature(doc.documentElement) as globalThis.Element);
  return signed.Verify();
}

/** Verifies the document element's signature with xml-crypto (certificate from KeyInfo). */
export function verifyWithXmlCrypto(xml: string): boolean {
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const root = doc.documentElement;
  if (!root) throw new Error("empty document");
  const signed = new SignedXml({ getCertFromKeyInfo: SignedXml.getCertFromKeyInfo });
  signed.loadSignature(findRootSignature(root) as globalThis.Node);
  return signed.checkSignature(xml);
}

/** The first element named `localName` in `xml` (parsed with @xmldom/xmldom). */
export function findElement(xml: string, localName: string): Element {
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const el = doc.getElementsByTagNameNS("*", localName).item(0);
  if (!el) throw new Error(`no ${localName}`);
  return el;
}

/** xml-crypto's inclusive C14N of the first `localName` element of `xml`, in its document context. */
export function c14nWithXmlCrypto(xml: string, localName: string): string {
  return new C14nCanonicalization().process(findElement(xml, localName) as unknown as globalThis.Node, {}) as string;
}

/** xmldsigjs's inclusive C14N (no comments) of the first `localName` element of `xml`, in its document context. */
export function c14nWithXmldsigjs(xml: string, localName: string): string {
  const doc = xmldsig.Parse(xml);
  const el = doc.getElementsByTagNameNS("*", localName).item(0);
  if (!el) throw new Error(`no ${localName}`);
  const transform = new xmldsig.XmlDsigC14NTransform();
  transform.LoadInnerXml(el);
  return transform.GetOutput() as string;
}

/** Checks a TED's FRMT: RSA-SHA1 over the ISO-8859-1 bytes of its `<DD>…</DD>` text. */
export function verifyTedText(ted: string, cafPublicKey: KeyObject): boolean {
  const dd = /<DD>[\s\S]*<\/DD>/.exec(ted)?.[0];
  const frmt = /<FRMT algoritmo="SHA1withRSA">([^<]+)<\/FRMT>/.exec(ted)?.[1];
  if (dd === undefined || frmt === undefined) return false;
  return verify("sha1", Buffer.from(dd, "latin1"), cafPublicKey, Buffer.from(frmt, "base64"));
}

/** Each `<DTE …>…</DTE>` cut out of an envelope's text, as stand-alone documents. */
export function cutDtes(envelope: string): string[] {
  return [...envelope.matchAll(/<DTE [\s\S]*?<\/DTE>/g)].map((m) => m[0]);
}

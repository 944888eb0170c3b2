/** Intercambio checks for tests: what Timbre mails (the outbox rows' attachments), verified independently. */
import { DOMParser } from "@xmldom/xmldom";
import { validateXsd, type XsdRoot } from "@timbre/xsd";
import { and, eq } from "drizzle-orm";
import { SignedXml } from "xml-crypto";
import { exchangeOutbox, type OutboxRow } from "../../src/db/received.js";
import type { Harness } from "./harness.js";

/** Every signature of `xml`, each checked in context by xml-crypto (certificate from KeyInfo). */
export function xmlCryptoVerifiesAll(xml: string): boolean {
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const signatures = doc.getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "Signature");
  if (signatures.length === 0) return false;
  for (let i = 0; i < signatures.length; i++) {
    const sx = new SignedXml({ getCertFromKeyInfo: SignedXml.getCertFromKeyInfo });
    sx.loadSignature(signatures.item(i) as unknown as Node);
    if (!sx.checkSignature(xml)) return false;
  }
  return true;
}

/** An attachment's text (the bytes are ISO-8859-1) and its XSD verdict. */
export async function attachmentOf(row: OutboxRow, prefix: string, root: XsdRoot): Promise<{ xml: string; valid: boolean; errors: string[] }> {
  const found = row.attachments.find((a) => a.filename.startsWith(prefix));
  if (!found) throw new Error(`no ${prefix} attachment in ${row.attachments.map((a) => a.filename).join(", ")}`);
  const bytes = Buffer.from(found.content, "base64");
  const { valid, errors } = await validateXsd(new Uint8Array(bytes), root);
  return { xml: bytes.toString("latin1"), valid, errors };
}

/** The outbox rows of a business of a kind, oldest first. */
export async function outboxOf(h: Harness, businessId: string, kind: OutboxRow["kind"]): Promise<OutboxRow[]> {
  return h.deps.db.select().from(exchangeOutbox).where(and(eq(exchangeOutbox.businessId, businessId), eq(exchangeOutbox.kind, kind))).orderBy(exchangeOutbox.createdAt);
}

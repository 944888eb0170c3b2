/** The bytes of a stored envelope: whole, or joined again from its skeleton and its documents' stored XML. */
import { inArray } from "drizzle-orm";
import type { Db } from "./open-database.js";
import { documents } from "./documents.js";
import { joinEnvelope, type StoredEnvelope } from "./envelope-layout.js";

export async function readStoredEnvelope(db: Db, envelope: StoredEnvelope): Promise<Uint8Array> {
  if (!envelope.layout) return envelope.xml;
  const ids = [...new Set(envelope.layout.map(([id]) => id))];
  const rows = await db.select({ id: documents.id, xml: documents.xml }).from(documents).where(inArray(documents.id, ids));
  return joinEnvelope(envelope.xml, envelope.layout, new Map(rows.map((r) => [r.id, r.xml])));
}

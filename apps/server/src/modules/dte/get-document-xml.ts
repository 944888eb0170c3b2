/** `GET /v1/dte/:id/xml`: the exact signed DTE bytes; `?envio=true` the envelope that carried it to the SII. */
import { eq } from "drizzle-orm";
import { envelopes } from "../../db/documents.js";
import { readStoredEnvelope } from "../../db/stored-envelope.js";
import type { Deps } from "../../deps.js";
import type { BusinessScope } from "../../http/auth.js";
import { notFound } from "../../http/errors.js";
import { findDocument } from "./find-document.js";
import { readFlag } from "./get-document.js";

/** Envelopes whose bytes were (or may have been) sent. */
const SENT = new Set(["uploaded", "refused", "unknown", "uploading"]);

export async function getDocumentXml(deps: Deps, scope: BusinessScope, id: string, query: Record<string, string | undefined>): Promise<{ bytes: Uint8Array; filename: string }> {
  const envio = readFlag(query, "envio");
  const row = await findDocument(deps, scope, id);
  if (!envio) return { bytes: row.xml, filename: `DTE-${row.tipo}-${row.folio}.xml` };
  if (row.envelopeId === null) throw notFound("envelope (the document was not uploaded yet)");
  const [envelope] = await deps.db.select().from(envelopes).where(eq(envelopes.id, row.envelopeId));
  if (!envelope || !SENT.has(envelope.status) || envelope.xml.byteLength === 0) throw notFound("envelope (the document was not uploaded yet)");
  return { bytes: await readStoredEnvelope(deps.db, envelope), filename: `${envelope.kind}-${row.tipo}-${row.folio}.xml` };
}

/**
 * The CPU-heavy part of importing a received envelope (API.md §12), as the verification threads run it: parse and
 * verify it (core's `verifyReceivedEnvelope`, our own verifier only), then validate it against `EnvioDTE_v10.xsd`
 * once cleaned (`cleanForSchema`). A malformed envelope is refused as `format` before the schema is asked, a
 * schema failure before any signature failure.
 */
import { cleanForSchema, decodeXml, verifyReceivedEnvelope, type ReceivedEnvelopeResult } from "@timbre/core";
import type { AuthorityKey } from "@timbre/core/caf";
import { validateXsd } from "@timbre/xsd";

export async function checkEnvelope(bytes: Uint8Array, rutReceptor: string, authorities: AuthorityKey[]): Promise<ReceivedEnvelopeResult> {
  // Our own verifier only: xml-crypto's second opinion costs ≈ 15–20× more per document (bench/RESULTS.md,
  // "Received envelopes"), and a thread held that long is one fewer for every other business.
  const verified = verifyReceivedEnvelope(bytes, { rutReceptor, authorities, crossCheck: false });
  if (!verified.ok && verified.reason === "format") return verified;
  const schema = await validateXsd(cleanForSchema(decodeXml(bytes)), "EnvioDTE");
  if (!schema.valid) return { ok: false, reason: "schema", message: `the envelope is not valid against EnvioDTE_v10.xsd: ${schema.errors.slice(0, 3).join("; ")}` };
  return verified;
}

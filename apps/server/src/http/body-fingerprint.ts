/**
 * What "the same body" means for idempotency (API.md §5: same key + same body → the stored answer): the parsed
 * request, not its bytes. JSON that differs only in whitespace or key order is the same body; so is a multipart
 * upload sent again — every retry of a `FormData` gets a new boundary — when its fields and files are the same.
 * A different value, field or file is not.
 */
import { createHash } from "node:crypto";
import { RawBody } from "./body.js";

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/** JSON text with object keys sorted at every level (arrays keep their order). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The fingerprint of a parsed body (`parseBody`'s result): JSON value, multipart form or raw upload. */
export async function bodyFingerprint(parsed: unknown): Promise<string> {
  if (parsed instanceof RawBody) return `raw ${parsed.contentType.split(";")[0]?.trim().toLowerCase()} ${sha256(parsed.bytes)}`;
  if (parsed instanceof FormData) {
    const fields: string[] = [];
    for (const [name, value] of parsed.entries() as Iterable<[string, unknown]>) {
      const content = value instanceof Blob ? `file ${sha256(new Uint8Array(await value.arrayBuffer()))}` : `text ${sha256(String(value))}`;
      fields.push(`${JSON.stringify(name)} ${content}`);
    }
    return `multipart ${fields.sort().join("\n")}`;
  }
  return `json ${canonicalJson(parsed)}`;
}

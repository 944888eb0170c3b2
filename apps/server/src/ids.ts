/**
 * Prefixed, sortable, random identifiers from one map (STYLE rule 8): prefix + 26-char lowercase ULID.
 */
import { randomFillSync } from "node:crypto";

export const ID_PREFIXES = {
  user: "usr_",
  business: "biz_",
  apiKey: "key_",
  numeration: "caf_",
  document: "dte_",
  event: "evt_",
  request: "req_",
  envelope: "env_",
  history: "hst_",
  delivery: "whd_",
  received: "rcv_",
  inbox: "inb_",
  mail: "mail_",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32, lowercase

/**
 * Random bytes drawn 4 KB at a time: a `randomBytes(16)` per id (a buffer and a call into the CSPRNG each) was ≈ 1 %
 * of the server's thread under load, where a state change makes three ids per document. Each byte is used once.
 */
const pool = new Uint8Array(4096);
let poolAt = pool.length;

/** A 26-character lowercase ULID: 48-bit millisecond time + 80 random bits. */
export function ulid(now: number = Date.now()): string {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  if (poolAt + 16 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  let random = "";
  for (let i = 0; i < 16; i++) random += ALPHABET[(pool[poolAt++] as number) % 32];
  return time + random;
}


/** A new id of the given kind, e.g. `newId("business")` → `biz_01j…`. */
export function newId(kind: IdKind): string {
  return ID_PREFIXES[kind] + ulid();
}

/** `true` when `value` looks like an id of `kind`. */
export function isId(kind: IdKind, value: string): boolean {
  return value.startsWith(ID_PREFIXES[kind]) && /^[0-9a-z]{26}$/.test(value.slice(ID_PREFIXES[kind].length));
}

import { expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { checkValue, matchesCheckValue } from "./check-value.js";

const key = randomBytes(32);

test("a check value matches its own secret and setting only", () => {
  const stored = checkValue("TIMBRE_MASTER_KEY", key);
  expect(matchesCheckValue(stored, "TIMBRE_MASTER_KEY", key)).toBe(true);
  expect(matchesCheckValue(stored, "TIMBRE_MASTER_KEY", randomBytes(32))).toBe(false);
  // The same bytes used as the other setting do not match: the name is part of the label.
  expect(matchesCheckValue(stored, "TIMBRE_JWT_SECRET", key)).toBe(false);
  const oneBitOff = Buffer.from(key);
  oneBitOff[0] = (oneBitOff[0] ?? 0) ^ 1;
  expect(matchesCheckValue(stored, "TIMBRE_MASTER_KEY", oneBitOff)).toBe(false);
});

test("it holds neither the secret nor a plain hash of it, and is salted per database", () => {
  const stored = checkValue("TIMBRE_MASTER_KEY", key);
  for (const encoding of ["base64", "base64url", "hex"] as const) expect(stored).not.toContain(key.toString(encoding));
  const sha = new Bun.CryptoHasher("sha256").update(key).digest();
  for (const encoding of ["base64url", "hex"] as const) expect(stored).not.toContain(sha.toString(encoding));
  const again = checkValue("TIMBRE_MASTER_KEY", key);
  expect(again).not.toBe(stored);
  expect(matchesCheckValue(again, "TIMBRE_MASTER_KEY", key)).toBe(true);
});

test("deterministic for a given salt; the format is versioned", () => {
  const salt = Buffer.alloc(16, 9);
  expect(checkValue("TIMBRE_JWT_SECRET", key, salt)).toBe(checkValue("TIMBRE_JWT_SECRET", key, salt));
  expect(checkValue("TIMBRE_JWT_SECRET", key, salt)).toStartWith("hmac-sha256.v1.");
});

test("malformed stored values never match", () => {
  const stored = checkValue("TIMBRE_JWT_SECRET", key);
  const [a, b, salt, mac] = stored.split(".");
  for (const bad of ["", "x", `${a}.${b}.${salt}`, `${a}.v2.${salt}.${mac}`, `${a}.${b}..${mac}`, `${a}.${b}.${salt}.${mac?.slice(1)}`, `${stored}.x`]) {
    expect(matchesCheckValue(bad, "TIMBRE_JWT_SECRET", key)).toBe(false);
  }
});

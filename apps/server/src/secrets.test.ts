import { expect, test } from "bun:test";
import { decryptSecretText, encryptSecret, parseJwtSecret, parseMasterKey } from "./secrets.js";

test("a short master key or JWT secret is refused, naming the setting and not the value", () => {
  expect(parseMasterKey(Buffer.alloc(32, 7).toString("base64")).equals(Buffer.alloc(32, 7))).toBe(true);
  expect(() => parseMasterKey("c2hvcnQ=")).toThrow("TIMBRE_MASTER_KEY must be 32 bytes, base64-encoded");
  expect(() => parseJwtSecret("j".repeat(31))).toThrow("TIMBRE_JWT_SECRET must be at least 32 characters");
  expect(parseJwtSecret("j".repeat(32))).toHaveLength(32);
});

test("AES-256-GCM round trip; tampering and wrong keys are detected", () => {
  const key = Buffer.alloc(32, 1);
  const sealed = encryptSecret(key, "-----BEGIN PRIVATE KEY-----");
  expect(sealed).not.toContain("PRIVATE");
  expect(decryptSecretText(key, sealed)).toBe("-----BEGIN PRIVATE KEY-----");
  expect(encryptSecret(key, "x")).not.toBe(encryptSecret(key, "x"));
  const parts = sealed.split(".");
  parts[3] = (parts[3]?.[0] === "A" ? "B" : "A") + (parts[3]?.slice(1) ?? "");
  expect(() => decryptSecretText(key, parts.join("."))).toThrow();
  expect(() => decryptSecretText(Buffer.alloc(32, 2), sealed)).toThrow();
});

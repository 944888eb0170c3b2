import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "./config.js";
import { decryptSecretText, encryptSecret, loadSecrets } from "./secrets.js";

test("generated once into the data directory with mode 0600, then reused", () => {
  const dir = mkdtempSync(join(tmpdir(), "timbre-secrets-"));
  try {
    const first = loadSecrets(loadConfig({ TIMBRE_DATA_DIR: dir }));
    expect(first.notice.generated).toHaveLength(2);
    expect(statSync(join(dir, "master.key")).mode & 0o777).toBe(0o600);
    const second = loadSecrets(loadConfig({ TIMBRE_DATA_DIR: dir }));
    expect(second.notice.generated).toEqual([]);
    expect(second.secrets.masterKey.equals(first.secrets.masterKey)).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("environment values win; a short master key is refused", () => {
  const key = Buffer.alloc(32, 7).toString("base64");
  const { secrets, notice } = loadSecrets(loadConfig({ TIMBRE_MASTER_KEY: key, TIMBRE_JWT_SECRET: "j".repeat(40) }));
  expect(notice.generated).toEqual([]);
  expect(secrets.masterKey.toString("base64")).toBe(key);
  expect(() => loadSecrets(loadConfig({ TIMBRE_MASTER_KEY: "c2hvcnQ=", TIMBRE_JWT_SECRET: "j".repeat(40) }))).toThrow("32 bytes");
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

/**
 * The work a PKCS#12 may ask of its reader: iteration counts (MAC, PBES2/PBKDF2, PKCS#12 PBE) beyond the cap are
 * refused before anything is derived, and RSA keys outside 1024–4096 bits are refused. Files are made here with
 * the openssl CLI and byte-patched.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import forge from "node-forge";
import { TimbreError } from "../errors/index.js";
import { withMacIterations } from "../testing/index.js";
import { readChildren, readTlv } from "./der.js";
import { DerivationBudget, MAX_PKCS12_ITERATIONS, MAX_PKCS12_TOTAL_ITERATIONS } from "./derivation-budget.js";
import { checkPkcs12Derivations, loadPkcs12, RSA_KEY_BITS } from "./index.js";
import { readPkcs12WithForge } from "./read-with-forge.js";
import { readPkcs12WithPkijs } from "./read-with-pkijs.js";

const dir = mkdtempSync(join(tmpdir(), "timbre-p12-limits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ssl = (...args: string[]) => execFileSync("/usr/bin/openssl", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
const PASSWORD = "contraseñaÁé";

function makeKey(name: string, bits: number): void {
  ssl("req", "-x509", "-newkey", `rsa:${bits}`, "-nodes", "-keyout", `${name}.key`, "-out", `${name}.crt`, "-days", "30", "-utf8",
    "-subj", "/C=CL/CN=JUAN PÉREZ SOTO", "-addext", "subjectAltName=otherName:1.3.6.1.4.1.8321.1;IA5STRING:11111111-1");
}

function p12(name: string, key: string, extra: string[] = [], password = PASSWORD): Uint8Array {
  ssl("pkcs12", "-export", ...extra, "-inkey", `${key}.key`, "-in", `${key}.crt`, "-out", name, "-passout", `pass:${password}`);
  return new Uint8Array(readFileSync(join(dir, name)));
}

makeKey("rsa", 2048);
const legacyAvailable = (() => {
  try {
    p12("probe.p12", "rsa", ["-legacy"]);
    return true;
  } catch {
    return false;
  }
})();

/** DER of one element. */
function tlv(tag: number, value: Uint8Array): Uint8Array {
  const n = value.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : n < 0x10000 ? [0x82, n >> 8, n & 0xff] : [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
  return new Uint8Array([tag, ...length, ...value]);
}

/** A non-negative INTEGER's DER. */
function integer(count: number): Uint8Array {
  const bytes: number[] = [];
  for (let n = count; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  if (bytes.length === 0 || (bytes[0] ?? 0) & 0x80) bytes.unshift(0);
  return tlv(0x02, new Uint8Array(bytes));
}

/**
 * The file with a valid SHA-256 MAC (2048 iterations) over its contents as they are now: what a hostile uploader,
 * who knows their own file's password, sends after patching the contents.
 */
function withMacRecomputed(file: Uint8Array, password: string): Uint8Array {
  const [version, authSafe] = readChildren(readTlv(file, 0).value);
  if (!version || !authSafe) throw new Error("not a PFX");
  const [, explicit] = readChildren(authSafe.value);
  const content = explicit && readTlv(explicit.value, 0).value;
  if (!content) throw new Error("no contents");
  const salt = randomBytes(8);
  const key = forge.pkcs12.generateKey(password, forge.util.createBuffer(salt.toString("binary")), 3, 2048, 32, forge.md.sha256.create());
  const mac = createHmac("sha256", Buffer.from(key.getBytes(), "binary")).update(content).digest();
  const sha256 = tlv(0x30, Buffer.concat([tlv(0x06, new Uint8Array([0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01])), tlv(0x05, new Uint8Array(0))]));
  const macData = tlv(0x30, Buffer.concat([tlv(0x30, Buffer.concat([sha256, tlv(0x04, mac)])), tlv(0x04, salt), integer(2048)]));
  return tlv(0x30, Buffer.concat([tlv(version.tag, version.value), tlv(authSafe.tag, authSafe.value), macData]));
}

/**
 * The file made with `-iter 65536` (INTEGER 02 03 01 00 00), its `nth` such count (0: the certificates' part,
 * 1: the key bag, 2: the MAC, in openssl's order) set to 0x7fffff — same length, nothing else to re-encode.
 */
function withIterationsPatched(file: Uint8Array, nth: number): Uint8Array {
  const out = new Uint8Array(file);
  const needle = Buffer.from([0x02, 0x03, 0x01, 0x00, 0x00]);
  let at = -1;
  for (let i = 0; i <= nth; i++) at = Buffer.from(out).indexOf(needle, at + 1);
  if (at < 0) throw new Error(`no iteration count #${nth}`);
  out.set([0x7f, 0xff, 0xff], at + 2);
  return out;
}

async function refusal(p: Promise<unknown>): Promise<{ code: string; details: Record<string, unknown>; message: string; ms: number }> {
  const started = performance.now();
  try {
    await p;
  } catch (e) {
    if (e instanceof TimbreError) return { code: e.code, details: e.details ?? {}, message: e.message, ms: performance.now() - started };
    throw e;
  }
  throw new Error("expected CERTIFICATE_INVALID");
}

describe("iteration counts", () => {
  const modern = p12("modern.p12", "rsa");
  const iter65536 = p12("iter65536.p12", "rsa", ["-iter", "65536"]);

  test("a valid file byte-patched to claim 2^31−1 MAC iterations is refused at once, whatever the password", async () => {
    const hostile = withMacIterations(modern, 2 ** 31 - 1);
    for (const password of [PASSWORD, "irrelevant"]) {
      const r = await refusal(loadPkcs12(hostile, password));
      expect(r.code).toBe("CERTIFICATE_INVALID");
      expect(r.details).toMatchObject({ reason: "iterations", where: "mac", iterations: 2 ** 31 - 1, limit: MAX_PKCS12_ITERATIONS });
      expect(r.message).toContain("2147483647");
      expect(r.ms).toBeLessThan(1000);
    }
    // The patch itself is sound: the same file at the count openssl wrote still loads.
    expect((await loadPkcs12(withMacIterations(modern, 2048), PASSWORD)).holderRut).toBe("11111111-1");
  }, 30_000);

  test("a huge PBKDF2 count in the certificates' part, in the key bag, or in the MAC → refused at once", async () => {
    for (const [nth, where] of [[0, "certificates"], [1, "key"], [2, "mac"]] as const) {
      const r = await refusal(loadPkcs12(withIterationsPatched(iter65536, nth), PASSWORD));
      expect(r.details).toMatchObject({ reason: "iterations", where, iterations: 0x7fffff });
      expect(r.ms).toBeLessThan(1000);
    }
  }, 30_000);

  test("each reader charges the derivations it reaches, also without the pre-check", async () => {
    // The MAC made valid again, so that the patched key bag is what the readers reach; an ASCII password, which
    // forge needs to decrypt the certificates' part before it reaches the key bag.
    const hugeKey = withMacRecomputed(withIterationsPatched(p12("ascii65536.p12", "rsa", ["-iter", "65536"], "test1234"), 1), "test1234");
    expect(() => readPkcs12WithForge(hugeKey, "test1234")).toThrow(/8388607 key-derivation iterations/);
    const thrown = await readPkcs12WithPkijs(hugeKey, "test1234").then(() => null, (e: unknown) => e);
    expect(thrown instanceof TimbreError && thrown.details?.["reason"]).toBe("iterations");
  }, 30_000);

  (legacyAvailable ? test : test.skip)("a huge PKCS#12 PBE count (legacy 3DES key bag) → refused at once", async () => {
    const legacy = p12("legacy65536.p12", "rsa", ["-legacy", "-iter", "65536"]);
    const r = await refusal(loadPkcs12(withIterationsPatched(legacy, 1), PASSWORD));
    expect(r.details).toMatchObject({ reason: "iterations", where: "key", iterations: 0x7fffff });
    expect(r.ms).toBeLessThan(1000);
  }, 30_000);

  test("normal counts still load: openssl's 2048, legacy 3DES, a Java-like 10000, no MAC iterations", async () => {
    const files = [modern, p12("iter10000.p12", "rsa", ["-iter", "10000"]), p12("nomaciter.p12", "rsa", ["-nomaciter"])];
    if (legacyAvailable) files.push(p12("legacy.p12", "rsa", ["-legacy"]));
    for (const file of files) expect((await loadPkcs12(file, PASSWORD)).holderRut).toBe("11111111-1");
  }, 60_000);

  test("the budget: each count up to the cap, the total up to three at the cap", () => {
    const budget = new DerivationBudget();
    for (let i = 0; i < MAX_PKCS12_TOTAL_ITERATIONS / MAX_PKCS12_ITERATIONS; i++) budget.spend(MAX_PKCS12_ITERATIONS, "key");
    expect(() => budget.spend(1, "key")).toThrow(/in all/);
    expect(() => new DerivationBudget().spend(MAX_PKCS12_ITERATIONS + 1, "mac")).toThrow(/limit is 200000/);
    expect(() => new DerivationBudget().spend(0, "mac")).toThrow(/not a positive integer/);
  });
});

test("megabytes of tiny elements are refused by the cheap check at once (format), without walking them all", () => {
  const count = 2_500_000;
  const body = new Uint8Array(count * 2).fill(0); // 2.5 million empty elements...
  for (let i = 0; i < count; i++) body[i * 2] = 0x30; // ...each an empty SEQUENCE
  const header = [0x30, 0x83, (body.length >> 16) & 0xff, (body.length >> 8) & 0xff, body.length & 0xff];
  const hostile = new Uint8Array(header.length + body.length);
  hostile.set(header);
  hostile.set(body, header.length);
  const started = performance.now();
  let reason: unknown;
  try {
    checkPkcs12Derivations(hostile);
  } catch (e) {
    reason = e instanceof TimbreError ? e.details?.["reason"] : e;
  }
  expect(reason).toBe("format");
  expect(performance.now() - started).toBeLessThan(100);
});

describe("RSA key size", () => {
  test(`keys outside ${RSA_KEY_BITS.min}–${RSA_KEY_BITS.max} bits → key_size; 4096 loads`, async () => {
    makeKey("rsa512", 512);
    makeKey("rsa4096", 4096);
    const r = await refusal(loadPkcs12(p12("rsa512.p12", "rsa512"), PASSWORD));
    expect(r.details).toMatchObject({ reason: "key_size", bits: 512, min_bits: 1024, max_bits: 4096 });
    const big = await loadPkcs12(p12("rsa4096.p12", "rsa4096"), PASSWORD);
    expect(big.privateKey.asymmetricKeyDetails?.modulusLength).toBe(4096);
  }, 120_000);
});

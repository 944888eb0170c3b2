import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { createHash, randomBytes, sign, verify } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSiiData } from "../../test/support/sii-data.js";
import { TimbreError } from "../errors/index.js";
import { generateTestCertificate } from "../testing/generate-test-certificate.js";
import { certificateSummary, checkCertificateValidity, loadPkcs12 } from "./index.js";

const OPENSSL = "/usr/bin/openssl";
const dir = mkdtempSync(join(tmpdir(), "timbre-p12-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ssl = (...args: string[]) => execFileSync(OPENSSL, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
const file = (name: string) => new Uint8Array(readFileSync(join(dir, name)));

// One RSA key + certificate shaped like a Chilean one (zero-padded RUT in the otherName), one EC pair.
ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "rsa.key", "-out", "rsa.crt", "-days", "30", "-utf8",
  "-subj", "/C=CL/O=Test CA Ltda/CN=JUAN PÉREZ SOTO/serialNumber=11111111-1",
  "-addext", "subjectAltName=otherName:1.3.6.1.4.1.8321.1;IA5STRING:011111111-1");
ssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ec.key");
ssl("req", "-x509", "-key", "ec.key", "-out", "ec.crt", "-days", "30", "-subj", "/CN=EC Holder");
const crtDer = new Uint8Array(Buffer.from(readFileSync(join(dir, "rsa.crt"), "utf8").replace(/-----[^-]+-----|\s/g, ""), "base64"));

function exportP12(name: string, password: string, extra: string[], key = "rsa.key", crt = "rsa.crt"): boolean {
  try {
    ssl("pkcs12", "-export", ...extra, "-inkey", key, "-in", crt, "-out", name, "-passout", `pass:${password}`);
    return true;
  } catch {
    return false;
  }
}

const NON_ASCII = "contraseñaÁé";
const kinds: Array<{ name: string; extra: string[]; password: string }> = [
  { name: "modern AES (OpenSSL 3 default), ASCII password", extra: [], password: "test1234" },
  { name: "modern AES, non-ASCII password", extra: [], password: NON_ASCII },
  { name: "-legacy (RC2 certs, 3DES key), ASCII password", extra: ["-legacy"], password: "test1234" },
  { name: "-legacy, non-ASCII password", extra: ["-legacy"], password: NON_ASCII },
  { name: "PBE-SHA1-3DES, ASCII password", extra: ["-keypbe", "PBE-SHA1-3DES", "-certpbe", "PBE-SHA1-3DES"], password: "test1234" },
  { name: "PBE-SHA1-3DES, non-ASCII password", extra: ["-keypbe", "PBE-SHA1-3DES", "-certpbe", "PBE-SHA1-3DES"], password: NON_ASCII },
  { name: "with the CA chain (-certfile), modern", extra: ["-certfile", "ec.crt"], password: "test1234" },
];

async function failure(p: Promise<unknown>): Promise<{ code: string; reason: unknown }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TimbreError) return { code: e.code, reason: e.details?.["reason"] };
    throw e;
  }
  throw new Error("expected CERTIFICATE_INVALID");
}

describe("loadPkcs12 on openssl-made files", () => {
  kinds.forEach((kind, i) => {
    const name = `kind${i}.p12`;
    const made = exportP12(name, kind.password, kind.extra);
    const title = made ? kind.name : `${kind.name} (SKIPPED: openssl cannot make it here)`;
    (made ? test : test.skip)(title, async () => {
      const cert = await loadPkcs12(file(name), kind.password);
      expect(cert.holderRut).toBe("11111111-1");
      expect(cert.holderName).toBe("JUAN PÉREZ SOTO");
      expect(cert.issuer).toBe("JUAN PÉREZ SOTO");
      expect(cert.certificateDer).toEqual(crtDer);
      expect(cert.fingerprintSha256).toBe(createHash("sha256").update(crtDer).digest("hex"));
      expect(cert.fingerprintSha256).toMatch(/^[0-9a-f]{64}$/);
      const opensslSerial = ssl("x509", "-in", "rsa.crt", "-noout", "-serial").toString().trim().split("=")[1] ?? "";
      expect(cert.serial).toBe(opensslSerial.toLowerCase().replace(/^(00)+/, ""));
      expect(cert.privateKey.asymmetricKeyType).toBe("rsa");
      const sig = sign("sha256", Buffer.from("hola"), cert.privateKey);
      expect(verify("sha256", Buffer.from("hola"), cert.certificatePem, sig)).toBe(true);
      expect(cert.validTo.getTime() - cert.validFrom.getTime()).toBe(30 * 86_400_000);
      expect(checkCertificateValidity(cert, new Date(cert.validFrom.getTime() + 1000))).toBe("valid");
    });
    (made ? test : test.skip)(`${title}: wrong password → password`, async () => {
      expect(await failure(loadPkcs12(file(name), "wrong-password"))).toEqual({ code: "CERTIFICATE_INVALID", reason: "password" });
    });
  });

  test("openssl -legacy availability is reported", () => {
    const legacy = exportP12("probe-legacy.p12", "x", ["-legacy"]);
    console.info(`openssl pkcs12 -legacy ${legacy ? "available" : "UNAVAILABLE"}`);
    expect(typeof legacy).toBe("boolean");
  });

  test("EC key → no_rsa_key", async () => {
    expect(exportP12("ec.p12", "test1234", [], "ec.key", "ec.crt")).toBe(true);
    expect(await failure(loadPkcs12(file("ec.p12"), "test1234"))).toEqual({ code: "CERTIFICATE_INVALID", reason: "no_rsa_key" });
  });

  test("EC key, legacy encryption → no_rsa_key", async () => {
    const made = exportP12("ec-legacy.p12", "test1234", ["-legacy"], "ec.key", "ec.crt");
    if (!made) return;
    expect(await failure(loadPkcs12(file("ec-legacy.p12"), "test1234"))).toEqual({ code: "CERTIFICATE_INVALID", reason: "no_rsa_key" });
  });

  test("truncated file → format", async () => {
    const full = file("kind0.p12");
    for (const cut of [full.length - 1, Math.floor(full.length / 2), 10, 1]) {
      expect(await failure(loadPkcs12(full.subarray(0, cut), "test1234"))).toEqual({ code: "CERTIFICATE_INVALID", reason: "format" });
    }
  });

  test("random bytes, empty, PEM text → format", async () => {
    for (const bytes of [new Uint8Array(randomBytes(2048)), new Uint8Array(0), new TextEncoder().encode(readFileSync(join(dir, "rsa.crt"), "utf8"))]) {
      expect(await failure(loadPkcs12(bytes, "test1234"))).toEqual({ code: "CERTIFICATE_INVALID", reason: "format" });
    }
  });

  test("a bare DER certificate is not a PKCS#12 → format", async () => {
    expect(await failure(loadPkcs12(crtDer, "test1234"))).toEqual({ code: "CERTIFICATE_INVALID", reason: "format" });
  });
});

describe("the synthetic test-cert.p12 (password test1234)", () => {
  test("loads; no RUT in it; summary", async () => {
    const cert = await loadPkcs12(readSiiData("fixtures/synthetic/test-cert.p12"), "test1234");
    expect(cert.holderName).toBe("PRUEBA DTE TEST");
    expect(cert.issuer).toBe("PRUEBA DTE TEST");
    expect(cert.holderRut).toBeNull();
    expect(cert.privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const summary = certificateSummary(cert);
    expect(summary).toEqual({
      holderRut: null,
      holderName: "PRUEBA DTE TEST",
      issuer: "PRUEBA DTE TEST",
      serial: cert.serial,
      validFrom: cert.validFrom.toISOString(),
      validTo: cert.validTo.toISOString(),
      fingerprintSha256: cert.fingerprintSha256,
    });
    expect(JSON.stringify(summary)).not.toContain("PRIVATE");
  });
  test("wrong password", async () => {
    expect(await failure(loadPkcs12(readSiiData("fixtures/synthetic/test-cert.p12"), "test12345"))).toEqual({ code: "CERTIFICATE_INVALID", reason: "password" });
  });
});

describe("the holder's RUT", () => {
  const make = (rutPlacement: "both" | "serialNumber" | "none", rut = "7880442-4") =>
    generateTestCertificate({ rut, name: "ANA PEREZ", password: "x", validFrom: new Date("2026-01-01"), validTo: new Date("2027-01-01"), rutPlacement });

  test("from the SII's subjectAltName otherName only: a RUT in the DN's serialNumber alone is none", async () => {
    for (const [placement, expected] of [["both", "7880442-4"], ["serialNumber", null], ["none", null]] as const) {
      const made = await make(placement);
      expect((await loadPkcs12(made.p12, "x")).holderRut).toBe(expected);
    }
  }, 30_000);
});

describe("checkCertificateValidity", () => {
  const c = { validFrom: new Date("2026-01-01T00:00:00Z"), validTo: new Date("2027-01-01T00:00:00Z") };
  test("bounds", () => {
    expect(checkCertificateValidity(c, new Date("2025-12-31T23:59:59Z"))).toBe("not_yet_valid");
    expect(checkCertificateValidity(c, new Date("2026-01-01T00:00:00Z"))).toBe("valid");
    expect(checkCertificateValidity(c, new Date("2027-01-01T00:00:00Z"))).toBe("valid");
    expect(checkCertificateValidity(c, new Date("2027-01-01T00:00:01Z"))).toBe("expired");
  });
});

import { afterAll, beforeAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateTestCertificate } from "@timbre/core/testing";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { expectError, tenant } from "../../../test/support/fixtures.js";

const DAY = 24 * 3600 * 1000;
const now = Date.now();
const PASSWORD = "clave-secreta";
let valid: Uint8Array;
let expired: Uint8Array;
let future: Uint8Array;

beforeAll(async () => {
  const make = (from: number, to: number) =>
    generateTestCertificate({ rut: "11111111-1", name: "JUAN PÉREZ", validFrom: new Date(from), validTo: new Date(to), password: PASSWORD }).then((c) => c.p12);
  [valid, expired, future] = await Promise.all([make(now - DAY, now + 365 * DAY), make(now - 400 * DAY, now - DAY), make(now + 10 * DAY, now + 400 * DAY)]);
}, 60_000);

/** An EC certificate in a PKCS#12, made with the openssl CLI (null when it is not installed). */
function ecP12(): Uint8Array | null {
  const dir = mkdtempSync(join(tmpdir(), "timbre-ec-"));
  try {
    execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", join(dir, "k.pem"), "-out", join(dir, "c.pem"), "-days", "30", "-subj", "/CN=EC TEST"], { stdio: "ignore" });
    execFileSync("openssl", ["pkcs12", "-export", "-inkey", join(dir, "k.pem"), "-in", join(dir, "c.pem"), "-out", join(dir, "c.p12"), "-passout", `pass:${PASSWORD}`], { stdio: "ignore" });
    return new Uint8Array(readFileSync(join(dir, "c.p12")));
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function form(file: Uint8Array | null, password: string | null): FormData {
  const f = new FormData();
  if (file) f.append("file", new Blob([file as Uint8Array<ArrayBuffer>]), "cert.p12");
  if (password !== null) f.append("password", password);
  return f;
}

describeDrivers("certificate upload", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  }, 60_000);
  afterAll(() => h.close(), 60_000);

  test("multipart upload → 200 business with certificate summary; key sealed at rest; password not stored", async () => {
    const t = await tenant(h);
    const res = await h.call("POST", `/v1/businesses/${t.business.id}/certificate`, { key: t.key.key, raw: form(valid, PASSWORD) });
    expect(res.status).toBe(200);
    expect(res.json.data.certificate).toMatchObject({ rut_titular: "11111111-1", nombre_titular: "JUAN PÉREZ" });
    expect(res.json.data.certificate.fingerprint_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(res.text).not.toContain("PRIVATE KEY");
    expect(res.text).not.toContain(PASSWORD);
    const rows = await h.database.db.query.businesses.findMany();
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain("PRIVATE KEY");
    expect(dump).not.toContain(PASSWORD);
    const get = await h.call("GET", `/v1/businesses/${t.business.id}`, { key: t.key.key });
    expect(get.json.data.certificate.serial).toBe(res.json.data.certificate.serial);
  });

  test("JSON upload { pfx_base64, password } → 200", async () => {
    const t = await tenant(h);
    const res = await h.call("POST", `/v1/businesses/${t.business.id}/certificate`, {
      key: t.key.key,
      body: { pfx_base64: Buffer.from(valid).toString("base64"), password: PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.certificate.rut_titular).toBe("11111111-1");
  });

  test("wrong password → 422 CERTIFICATE_INVALID reason password", async () => {
    const t = await tenant(h);
    const res = await h.call("POST", `/v1/businesses/${t.business.id}/certificate`, { key: t.key.key, raw: form(valid, "not-it") });
    expectError(res, 422, "CERTIFICATE_INVALID");
    expect(res.json.error.details.reason).toBe("password");
  });

  test("not a PKCS#12 → reason format (multipart and bad base64)", async () => {
    const t = await tenant(h);
    const garbage = await h.call("POST", `/v1/businesses/${t.business.id}/certificate`, { key: t.key.key, raw: form(new TextEncoder().encode("hello"), "x") });
    expectError(garbage, 422, "CERTIFICATE_INVALID");
    expect(garbage.json.error.details.reason).toBe("format");
    const b64 = await h.call("POST", `/v1/businesses/${t.business.id}/certificate`, { key: t.key.key, body: { pfx_base64: "%%%", password: "x" } });
    expect(b64.json.error.details.reason).toBe("format");
  });

  test("expired and not yet valid certificates are refused", async () => {
    const t = await tenant(h);
    const old = await h.call("POST", `/v1/businesses/${t.business.id}/certificate`, { key: t.key.key, raw: form(expired, PASSWORD) });
    expectError(old, 422, "CERTIFICATE_INVALID");
    expect(old.json.error.details.reason).toBe("expired");
    const soon = await h.call("POST", `/v1/businesses/${t.business.id}/certificate`, { key: t.key.key, raw: form(future, PASSWORD) });
    expect(soon.json.error.details.reason).toBe("not_yet_valid");
  });

  test("no holder RUT in the SII's otherName → reason no_rut, nothing stored (a RUT only in the DN's serialNumber too)", async () => {
    const make = (rutPlacement: "serialNumber" | "none") =>
      generateTestCertificate({ rut: "7880442-4", name: "ANA PEREZ", validFrom: new Date(now - DAY), validTo: new Date(now + DAY), password: PASSWORD, rutPlacement }).then((c) => c.p12);
    const t = await tenant(h);
    const none = await h.call("POST", `/v1/businesses/${t.business.id}/certificate`, { key: t.key.key, raw: form(await make("none"), PASSWORD) });
    expectError(none, 422, "CERTIFICATE_INVALID");
    expect(none.json.error.details.reason).toBe("no_rut");
    expect(none.json.error.message).toContain("RUT");
    expect((await h.call("GET", `/v1/businesses/${t.business.id}`, { key: t.key.key })).json.data.certificate).toBeNull();
    const serialOnly = await h.call("POST", `/v1/businesses/${t.business.id}/certificate`, { key: t.key.key, raw: form(await make("serialNumber"), PASSWORD) });
    expectError(serialOnly, 422, "CERTIFICATE_INVALID");
    expect(serialOnly.json.error.details.reason).toBe("no_rut");
  }, 30_000);

  test("an EC certificate → reason no_rsa_key", async () => {
    const p12 = ecP12();
    if (!p12) {
      console.log("skipped: openssl CLI not available");
      return;
    }
    const t = await tenant(h);
    const res = await h.call("POST", `/v1/businesses/${t.business.id}/certificate`, { key: t.key.key, raw: form(p12, PASSWORD) });
    expectError(res, 422, "CERTIFICATE_INVALID");
    expect(res.json.error.details.reason).toBe("no_rsa_key");
  });

  test("missing fields → 422 required (multipart and JSON)", async () => {
    const t = await tenant(h);
    const noPassword = await h.call("POST", `/v1/businesses/${t.business.id}/certificate`, { key: t.key.key, raw: form(valid, null) });
    expectError(noPassword, 422, "VALIDATION_ERROR");
    expect(noPassword.json.error.details).toMatchObject({ field: "password", reason: "required" });
    const noFile = await h.call("POST", `/v1/businesses/${t.business.id}/certificate`, { key: t.key.key, body: { password: "x" } });
    expect(noFile.json.error.details).toMatchObject({ field: "pfx_base64", reason: "required" });
  });

  test("other content types → 415; over 5 MiB → 413", async () => {
    const t = await tenant(h);
    const text = await h.call("POST", `/v1/businesses/${t.business.id}/certificate`, { key: t.key.key, raw: "abc", headers: { "content-type": "text/plain" } });
    expectError(text, 415, "UNSUPPORTED_MEDIA_TYPE");
    const big = await h.call("POST", `/v1/businesses/${t.business.id}/certificate`, { key: t.key.key, raw: form(new Uint8Array(5 * 1024 * 1024 + 10), PASSWORD) });
    expectError(big, 413, "PAYLOAD_TOO_LARGE");
  });

  test("another tenant's business → 404", async () => {
    const a = await tenant(h);
    const b = await tenant(h, "60803000-K");
    expectError(await h.call("POST", `/v1/businesses/${b.business.id}/certificate`, { key: a.key.key, raw: form(valid, PASSWORD) }), 404, "NOT_FOUND");
    expectError(await h.call("POST", `/v1/businesses/${b.business.id}/certificate`, { token: a.user.token, raw: form(valid, PASSWORD) }), 404, "NOT_FOUND");
  });
});

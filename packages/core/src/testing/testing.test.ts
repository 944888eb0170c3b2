import { describe, expect, test } from "bun:test";
import { sign, verify, X509Certificate } from "node:crypto";
import { loadPkcs12 } from "../certificates/index.js";
import { issueCaf, parseCaf, verifyCaf } from "../caf/index.js";
import { generateAuthorityKey, generateTestCertificate } from "./index.js";

const base = { rut: "11.111.111-1", name: "JUAN PÉREZ", validFrom: new Date("2026-01-01T00:00:00Z"), validTo: new Date("2028-01-01T00:00:00Z"), password: "test1234" };

describe("generateTestCertificate", () => {
  test("round-trips through loadPkcs12 (3DES default)", async () => {
    const generated = await generateTestCertificate(base);
    const loaded = await loadPkcs12(generated.p12, generated.password);
    expect(loaded.holderRut).toBe("11111111-1");
    expect(loaded.holderName).toBe("JUAN PÉREZ");
    expect(loaded.certificateDer).toEqual(generated.certificateDer);
    expect(loaded.validFrom.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(loaded.validTo.toISOString()).toBe("2028-01-01T00:00:00.000Z");
    expect(loaded.privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const sig = sign("sha1", Buffer.from("x"), loaded.privateKey);
    expect(verify("sha1", Buffer.from("x"), generated.privateKey, sig)).toBe(true);
    expect(new X509Certificate(generated.certificatePem).raw).toEqual(Buffer.from(generated.certificateDer));
  });

  test("aes256, non-ASCII password, zero-padded RUT with K", async () => {
    const generated = await generateTestCertificate({ ...base, rut: "7880442-4", zeroPadRut: true, password: "contraseñaÁé", algorithm: "aes256" });
    const loaded = await loadPkcs12(generated.p12, "contraseñaÁé");
    expect(loaded.holderRut).toBe("7880442-4");
    const k = await generateTestCertificate({ ...base, rut: "76354771-k" });
    expect((await loadPkcs12(k.p12, "test1234")).holderRut).toBe("76354771-K");
  });

  test("the RUT sits in subjectAltName otherName 1.3.6.1.4.1.8321.1 as an IA5String", async () => {
    const generated = await generateTestCertificate({ ...base, rut: "7880442-4", zeroPadRut: true });
    const hex = Buffer.from(generated.certificateDer).toString("hex");
    const oid = "06082b06010401c10101";
    const ia5 = `a00c160a${Buffer.from("07880442-4").toString("hex")}`;
    expect(hex).toContain(oid + ia5);
  });

  test("an invalid RUT is refused", async () => {
    expect(generateTestCertificate({ ...base, rut: "11111111-2" })).rejects.toThrow();
  });
});

describe("generateAuthorityKey", () => {
  test("RSA-512 e=65537 and usable with issueCaf/verifyCaf", () => {
    const authority = generateAuthorityKey(42);
    expect(authority.idk).toBe(42);
    expect(authority.publicKey.asymmetricKeyDetails).toMatchObject({ modulusLength: 512, publicExponent: 65537n });
    const { xml } = issueCaf({ authority, rut: "76192083-9", razonSocial: "SASCO SpA", tipo: 39, desde: 1, hasta: 10, fechaAutorizacion: "2026-01-15" });
    expect(() => verifyCaf(parseCaf(xml), [authority])).not.toThrow();
  });
});

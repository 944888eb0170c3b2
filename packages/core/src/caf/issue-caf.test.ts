import { describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { TimbreError } from "../errors/index.js";
import { generateAuthorityKey } from "../testing/generate-authority-key.js";
import { issueCaf, parseCaf, verifyCaf } from "./index.js";

const authority = generateAuthorityKey(999);
const base = { authority, rut: "76.192.083-9", razonSocial: "SASCO SpA", tipo: 33, desde: 1, hasta: 100, fechaAutorizacion: "2026-01-15" };

function reason(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    if (e instanceof TimbreError) return `${e.code}:${String(e.details?.["reason"] ?? e.details?.["field"])}`;
    throw e;
  }
  return "no error";
}

describe("issueCaf", () => {
  test("round trip issueCaf → parseCaf → verifyCaf", () => {
    const { xml, caf } = issueCaf(base);
    const parsed = parseCaf(xml);
    expect(parsed).toMatchObject({ rut: "76192083-9", razonSocial: "SASCO SpA", tipo: 33, desde: 1, hasta: 100, fechaAutorizacion: "2026-01-15", idk: 999 });
    expect(parsed.cafXml).toBe(caf.cafXml);
    expect(parsed.publicKey.asymmetricKeyDetails).toMatchObject({ modulusLength: 512, publicExponent: 3n });
    expect(() => verifyCaf(parsed, [authority])).not.toThrow();
    expect(() => verifyCaf(parseCaf(new TextEncoder().encode(xml)), [authority])).not.toThrow();
  });

  test("another authority with the same IDK does not verify it", () => {
    const { caf } = issueCaf(base);
    const impostor = generateAuthorityKey(999);
    expect(reason(() => verifyCaf(caf, [impostor]))).toBe("CAF_INVALID:signature");
  });

  test("Latin-1 and XML special characters in RS survive and verify as ISO-8859-1 bytes", () => {
    const { xml, caf } = issueCaf({ ...base, razonSocial: "Ñandú & Cía <Ltda> de Servicios Generales Muy Largos" });
    expect(caf.razonSocial).toBe("Ñandú & Cía <Ltda> de Servicios Generale");
    expect(caf.razonSocial.length).toBe(40);
    expect(caf.daXml).toContain("<RS>Ñandú &amp; Cía &lt;Ltda&gt; de Servicios Generale</RS>");
    const latin1 = Uint8Array.from(xml, (c) => c.charCodeAt(0));
    expect(() => verifyCaf(parseCaf(latin1), [authority])).not.toThrow();
  });

  test("uses a given key pair", () => {
    const keyPair = generateKeyPairSync("rsa", { modulusLength: 512, publicExponent: 3 });
    const { caf } = issueCaf({ ...base, keyPair: { privateKey: keyPair.privateKey } });
    expect(caf.publicKey.export({ format: "jwk" }).n).toBe(keyPair.publicKey.export({ format: "jwk" }).n);
  });

  test("non Latin-1 RS is refused", () => {
    expect(reason(() => issueCaf({ ...base, razonSocial: "Café €" }))).toBe("CAF_INVALID:charset");
  });

  test("bad input", () => {
    expect(reason(() => issueCaf({ ...base, hasta: 0 }))).toBe("VALIDATION_ERROR:hasta");
    expect(reason(() => issueCaf({ ...base, desde: 10, hasta: 5 }))).toBe("VALIDATION_ERROR:hasta");
    expect(reason(() => issueCaf({ ...base, tipo: 1.5 }))).toBe("VALIDATION_ERROR:tipo");
    expect(reason(() => issueCaf({ ...base, fechaAutorizacion: "15-01-2026" }))).toBe("VALIDATION_ERROR:fechaAutorizacion");
    expect(() => issueCaf({ ...base, rut: "76192083-8" })).toThrow(TimbreError);
  });
});

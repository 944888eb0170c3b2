import { describe, expect, test } from "bun:test";
import { verifyWithXmlCrypto, verifyWithXmldsigjs } from "../../test/support/independent-verify.js";
import { sampleIdentity } from "../../test/support/signing-fixtures.js";
import { signSeed } from "./sign-seed.js";

describe("signSeed", () => {
  const xml = signSeed("012345678901", sampleIdentity());

  test("is the getToken document with an enveloped signature as last child", () => {
    expect(xml).toStartWith('<?xml version="1.0"?>\n<getToken><item><Semilla>012345678901</Semilla></item><Signature xmlns="http://www.w3.org/2000/09/xmldsig#">');
    expect(xml).toContain('<Reference URI=""><Transforms><Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/></Transforms>');
    expect(xml).toEndWith("</Signature></getToken>");
  });

  test("verifies with xmldsigjs and xml-crypto", async () => {
    expect(await verifyWithXmldsigjs(xml)).toBe(true);
    expect(verifyWithXmlCrypto(xml)).toBe(true);
  });

  test("a tampered seed no longer verifies", async () => {
    const tampered = xml.replace("012345678901", "012345678902");
    await expect(verifyWithXmldsigjs(tampered)).rejects.toThrow(/Invalid digest/);
    expect(verifyWithXmlCrypto(tampered)).toBe(false);
  });

  test("refuses an empty seed", () => {
    expect(() => signSeed("  ", sampleIdentity())).toThrow();
  });
});

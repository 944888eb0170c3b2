import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { readSiiData, siiDataPath } from "../../test/support/sii-data.js";
import { isTimbreError, TimbreError } from "../errors/index.js";
import { authorityKeyFromPem, parseCaf, parseEmbeddedCaf, verifyCaf, verifyCafSignature, type AuthorityKey } from "./index.js";

const text = (rel: string) => new TextDecoder("latin1").decode(readSiiData(rel));
const key = (idk: number, rel: string): AuthorityKey => authorityKeyFromPem(idk, text(rel));
const fake999 = key(999, "fixtures/synthetic/fake-sii-999.pub.pem");
const sii100 = key(100, "certs/100.pub.pem");
const sii300 = key(300, "certs/300.pub.pem");

function reasonOf(fn: () => unknown): { code: string; reason: unknown } {
  try {
    fn();
  } catch (e) {
    if (e instanceof TimbreError) return { code: e.code, reason: e.details?.["reason"] };
    throw e;
  }
  throw new Error("expected a TimbreError");
}

const T33 = "fixtures/synthetic/CAF-T33-synthetic.xml";
const T39 = "fixtures/synthetic/CAF-T39-synthetic.xml";

describe("parseCaf on the synthetic CAFs", () => {
  test("T33 fields", () => {
    const caf = parseCaf(readSiiData(T33));
    expect(caf).toMatchObject({ rut: "76192083-9", razonSocial: "SASCO SpA", tipo: 33, desde: 1, hasta: 100, fechaAutorizacion: "2026-01-15", idk: 999 });
    expect(caf.daXml.startsWith("<DA><RE>76192083-9</RE>")).toBe(true);
    expect(caf.daXml.endsWith("<IDK>999</IDK></DA>")).toBe(true);
    expect(caf.cafXml).toBe(`<CAF version="1.0">${caf.daXml}<FRMA algoritmo="SHA1withRSA">${caf.frma}</FRMA></CAF>`);
    expect(caf.cafXml).toBe(/<CAF version="1\.0">.*<\/CAF>/.exec(text(T33))?.[0] ?? "");
    expect(caf.publicKey.asymmetricKeyDetails).toMatchObject({ modulusLength: 512, publicExponent: 3n });
    expect(caf.privateKey.type).toBe("private");
  });

  test("T39 parses from a string too", () => {
    const caf = parseCaf(text(T39));
    expect(caf.tipo).toBe(39);
    expect(caf.idk).toBe(999);
  });

  for (const file of [T33, T39]) {
    test(`${file} verifies with the fake authority 999`, () => {
      expect(() => verifyCaf(parseCaf(readSiiData(file)), [sii100, fake999, sii300])).not.toThrow();
    });
    test(`${file} fails with the real SII keys relabelled 999 (signature)`, () => {
      const caf = parseCaf(readSiiData(file));
      expect(reasonOf(() => verifyCaf(caf, [{ idk: 999, publicKey: sii100.publicKey }]))).toEqual({ code: "CAF_INVALID", reason: "signature" });
      expect(reasonOf(() => verifyCaf(caf, [{ idk: 999, publicKey: sii300.publicKey }]))).toEqual({ code: "CAF_INVALID", reason: "signature" });
    });
    test(`${file} with only 100/300 keys → unknown_authority`, () => {
      expect(reasonOf(() => verifyCaf(parseCaf(readSiiData(file)), [sii100, sii300]))).toEqual({ code: "CAF_INVALID", reason: "unknown_authority" });
    });
  }
});

describe("tampered CAFs", () => {
  const original = text(T33);
  const other = text(T39);

  test("range changed → signature", () => {
    const caf = parseCaf(original.replace("<H>100</H>", "<H>1000</H>"));
    expect(caf.hasta).toBe(1000);
    expect(reasonOf(() => verifyCaf(caf, [fake999]))).toEqual({ code: "CAF_INVALID", reason: "signature" });
  });

  test("RS changed → signature", () => {
    const caf = parseCaf(original.replace("SASCO SpA", "SASCO SPA"));
    expect(reasonOf(() => verifyCaf(caf, [fake999]))).toEqual({ code: "CAF_INVALID", reason: "signature" });
  });

  test("FRMA changed → signature", () => {
    const frma = /<FRMA[^>]*>([^<]+)</.exec(original)?.[1] ?? "";
    const flipped = (frma[0] === "A" ? "B" : "A") + frma.slice(1);
    expect(reasonOf(() => verifyCaf(parseCaf(original.replace(frma, flipped)), [fake999]))).toEqual({ code: "CAF_INVALID", reason: "signature" });
  });

  test("FRMA from the other CAF → signature", () => {
    const frmaOther = /<FRMA[^>]*>([^<]+)</.exec(other)?.[1] ?? "";
    const tampered = original.replace(/(<FRMA[^>]*>)[^<]+/, `$1${frmaOther}`);
    expect(reasonOf(() => verifyCaf(parseCaf(tampered), [fake999]))).toEqual({ code: "CAF_INVALID", reason: "signature" });
  });

  test("RSASK from another CAF → key_mismatch (DA still genuine)", () => {
    const rsaskOther = /<RSASK>[\s\S]*<\/RSASK>/.exec(other)?.[0] ?? "";
    const tampered = original.replace(/<RSASK>[\s\S]*<\/RSASK>/, rsaskOther);
    const caf = parseCaf(tampered);
    expect(reasonOf(() => verifyCaf(caf, [fake999]))).toEqual({ code: "CAF_INVALID", reason: "key_mismatch" });
  });

  test("RSAPUBK from another CAF → key_mismatch at parse", () => {
    const pubOther = /<RSAPUBK>[\s\S]*<\/RSAPUBK>/.exec(other)?.[0] ?? "";
    expect(reasonOf(() => parseCaf(original.replace(/<RSAPUBK>[\s\S]*<\/RSAPUBK>/, pubOther)))).toEqual({ code: "CAF_INVALID", reason: "key_mismatch" });
  });

  test("RSAPK modulus swapped with the other CAF's (with matching keys) → signature", () => {
    const grab = (re: RegExp, s: string) => re.exec(s)?.[0] ?? "";
    const tampered = original
      .replace(/<M>[^<]+<\/M>/, grab(/<M>[^<]+<\/M>/, other))
      .replace(/<RSASK>[\s\S]*<\/RSASK>/, grab(/<RSASK>[\s\S]*<\/RSASK>/, other))
      .replace(/<RSAPUBK>[\s\S]*<\/RSAPUBK>/, grab(/<RSAPUBK>[\s\S]*<\/RSAPUBK>/, other));
    expect(reasonOf(() => verifyCaf(parseCaf(tampered), [fake999]))).toEqual({ code: "CAF_INVALID", reason: "signature" });
  });

  test("IDK changed to 100 → signature with the real 100 key", () => {
    const caf = parseCaf(original.replace("<IDK>999</IDK>", "<IDK>100</IDK>"));
    expect(reasonOf(() => verifyCaf(caf, [sii100, fake999]))).toEqual({ code: "CAF_INVALID", reason: "signature" });
  });
});

describe("malformed and incomplete CAFs → CAF_INVALID", () => {
  const original = text(T33);
  const cases: Array<[string, string, string]> = [
    ["not XML", "hello", "malformed"],
    ["empty", "", "malformed"],
    ["truncated", original.slice(0, 300), "malformed"],
    ["wrong root", original.replace(/AUTORIZACION/g, "AUTH"), "structure"],
    ["no CAF", original.replace(/<CAF [\s\S]*<\/CAF>/, ""), "structure"],
    ["missing RNG/H", original.replace("<H>100</H>", ""), "field"],
    ["H < D", original.replace("<D>1</D>", "<D>200</D>"), "field"],
    ["bad FA", original.replace("2026-01-15", "2026-02-30"), "field"],
    ["bad RUT", original.replace("76192083-9</RE>", "76192083-8</RE>"), "field"],
    ["TD not a number", original.replace("<TD>33</TD>", "<TD>x</TD>"), "field"],
    ["no RSASK", original.replace(/<RSASK>[\s\S]*<\/RSASK>/, ""), "field"],
    ["garbage RSASK", original.replace(/<RSASK>[\s\S]*<\/RSASK>/, "<RSASK>nope</RSASK>"), "field"],
    ["no RSAPUBK", original.replace(/<RSAPUBK>[\s\S]*<\/RSAPUBK>/, ""), "field"],
    ["modulus not base64", original.replace(/<M>[^<]+<\/M>/, "<M>!!</M>"), "field"],
    ["DSA key", original.replace("<RSAPK>", "<DSAPK><P>AA==</P></DSAPK><RSAPK>"), "unsupported_key"],
    ["wrong algorithm", original.replace('algoritmo="SHA1withRSA"', 'algoritmo="SHA256withRSA"'), "field"],
    ["UTF-16-ish NULs", original.split("").join("\u0000"), "malformed"],
  ];
  for (const [name, xml, reason] of cases) {
    test(name, () => {
      expect(reasonOf(() => parseCaf(xml))).toEqual({ code: "CAF_INVALID", reason });
    });
  }
});

describe("unsafe XML is refused before parsing", () => {
  const billionLaughs =
    `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">` +
    Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? "" : i};`.repeat(10)}">`).join("") +
    `]><AUTORIZACION><CAF version="1.0"><DA><RS>&lol9;</RS></DA></CAF></AUTORIZACION>`;
  const externalEntity = `<?xml version="1.0"?><!DOCTYPE a [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><AUTORIZACION><CAF version="1.0"><DA><RS>&xxe;</RS></DA></CAF></AUTORIZACION>`;
  const cases: Array<[string, string]> = [
    ["billion laughs", billionLaughs],
    ["external entity", externalEntity],
    ["lower-case doctype", `<!doctype x><AUTORIZACION/>`],
    ["bare ENTITY after the root", `${text(T33)}<!ENTITY x "y">`],
  ];
  for (const [name, xml] of cases) {
    test(`${name} → CAF_UNSAFE_XML fast`, () => {
      const started = performance.now();
      expect(reasonOf(() => parseCaf(xml)).code).toBe("CAF_UNSAFE_XML");
      expect(reasonOf(() => parseCaf(new TextEncoder().encode(xml))).code).toBe("CAF_UNSAFE_XML");
      expect(reasonOf(() => parseEmbeddedCaf(xml)).code).toBe("CAF_UNSAFE_XML");
      expect(performance.now() - started).toBeLessThan(100);
    });
  }
});

describe("CAFs embedded in real DTEs (TED/DD/CAF)", () => {
  const samples = readdirSync(siiDataPath("fixtures")).filter((f) => f.endsWith(".xml")).sort();

  test("the sample folder has the expected files", () => {
    expect(samples).toContain("F60T33-ejemplo-oficial-SII.xml");
    expect(samples.filter((f) => f.startsWith("DTE--")).length).toBe(8);
  });

  for (const file of samples.filter((f) => f.startsWith("DTE--"))) {
    test(`${file}: IDK 300 FRMA verifies with certs/300.pub.pem`, () => {
      const caf = parseEmbeddedCaf(readSiiData(`fixtures/${file}`));
      expect(caf.idk).toBe(300);
      expect(caf.publicKey.asymmetricKeyDetails?.modulusLength).toBe(512);
      expect(() => verifyCafSignature(caf, [sii300])).not.toThrow();
      expect(reasonOf(() => verifyCafSignature(caf, [{ idk: 300, publicKey: sii100.publicKey }]))).toEqual({ code: "CAF_INVALID", reason: "signature" });
      expect(reasonOf(() => verifyCafSignature(caf, [sii100]))).toEqual({ code: "CAF_INVALID", reason: "unknown_authority" });
    });
  }

  test("official SII example F60T33 (IDK 100, pretty-printed DA) verifies with certs/100.pub.pem", () => {
    const caf = parseEmbeddedCaf(readSiiData("fixtures/F60T33-ejemplo-oficial-SII.xml"));
    expect(caf).toMatchObject({ rut: "97975000-5", razonSocial: "RUT DE PRUEBA", tipo: 33, desde: 1, hasta: 200, fechaAutorizacion: "2003-09-04", idk: 100 });
    expect(caf.daXml).toBe(
      "<DA><RE>97975000-5</RE><RS>RUT DE PRUEBA</RS><TD>33</TD><RNG><D>1</D><H>200</H></RNG><FA>2003-09-04</FA>" +
        "<RSAPK><M>0a4O6Kbx8Qj3K4iWSP4w7KneZYeJ+g/prihYtIEolKt3cykSxl1zO8vSXu397QhTmsX7SBEudTUx++2zDXBhZw==</M><E>Aw==</E></RSAPK><IDK>100</IDK></DA>",
    );
    expect(() => verifyCafSignature(caf, [sii100])).not.toThrow();
  });

  test("the real BATA CAF keeps the double space of its RS", () => {
    const caf = parseEmbeddedCaf(readSiiData("fixtures/DTE--96670340-7--61--110616.xml"));
    expect(caf.razonSocial).toBe("BATA CHILE  S.A.");
    expect(caf.daXml).toContain("<RS>BATA CHILE  S.A.</RS>");
  });
});

describe("authorityKeyFromPem", () => {
  test("reads SPKI and certificate PEM", () => {
    expect(sii100.publicKey.asymmetricKeyDetails?.modulusLength).toBe(512);
    // 100.cer/300.cer are PEM certificates with an invalid X.509 version (4) that Bun's crypto refuses.
    for (const idk of [100, 300]) {
      const fromCert = authorityKeyFromPem(idk, text(`certs/${idk}.cer`));
      const fromSpki = idk === 100 ? sii100 : sii300;
      expect(fromCert.publicKey.export({ format: "jwk" }).n).toBe(fromSpki.publicKey.export({ format: "jwk" }).n);
    }
  });
  test("garbage → CAF_INVALID", () => {
    expect(isTimbreError(catchIt(() => authorityKeyFromPem(1, "nope")), "CAF_INVALID")).toBe(true);
  });
});

function catchIt(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

import { describe, expect, test } from "bun:test";
import { RawBody } from "./body.js";
import { bodyFingerprint, canonicalJson } from "./body-fingerprint.js";

const form = (fields: Array<[string, string | Blob]>) => {
  const f = new FormData();
  for (const [name, value] of fields) f.append(name, value);
  return f;
};

describe("the body fingerprint behind Idempotency-Key (API.md §5)", () => {
  test("JSON: whitespace and key order do not matter; values, array order and types do", async () => {
    const a = await bodyFingerprint(JSON.parse('{"tipo":33,"items":[{"nombre":"a","precio":1}],"receptor":{"rut":"1-9"}}'));
    const b = await bodyFingerprint(JSON.parse('{ "receptor": { "rut": "1-9" },\n  "items": [ { "precio": 1, "nombre": "a" } ], "tipo": 33 }'));
    expect(b).toBe(a);
    expect(await bodyFingerprint({ tipo: 34, items: [{ nombre: "a", precio: 1 }], receptor: { rut: "1-9" } })).not.toBe(a);
    expect(await bodyFingerprint({ v: "1" })).not.toBe(await bodyFingerprint({ v: 1 }));
    expect(await bodyFingerprint({ v: [1, 2] })).not.toBe(await bodyFingerprint({ v: [2, 1] }));
    expect(canonicalJson({ b: [{ d: 1, c: null }], a: "ñ" })).toBe('{"a":"ñ","b":[{"c":null,"d":1}]}');
  });

  test("multipart: the same fields and files are the same body whatever the boundary; another file or value is not", async () => {
    const file = () => new Blob(["<AUTORIZACION>…</AUTORIZACION>"]);
    const a = await bodyFingerprint(form([["file", file()], ["password", "secreto"]]));
    expect(await bodyFingerprint(form([["password", "secreto"], ["file", file()]]))).toBe(a);
    expect(await bodyFingerprint(form([["file", new Blob(["<AUTORIZACION>!</AUTORIZACION>"])], ["password", "secreto"]]))).not.toBe(a);
    expect(await bodyFingerprint(form([["file", file()], ["password", "otro"]]))).not.toBe(a);
    // a text field and a file with the same content differ
    expect(await bodyFingerprint(form([["file", "x"]]))).not.toBe(await bodyFingerprint(form([["file", new Blob(["x"])]])));
    // and it never holds the password itself
    expect(a).not.toContain("secreto");
  });

  test("raw uploads: bytes and media type", async () => {
    const bytes = new TextEncoder().encode("<AUTORIZACION/>");
    const xml = await bodyFingerprint(new RawBody(bytes, "application/xml; charset=ISO-8859-1"));
    expect(await bodyFingerprint(new RawBody(bytes, "application/xml"))).toBe(xml);
    expect(await bodyFingerprint(new RawBody(bytes, "text/xml"))).not.toBe(xml);
    expect(await bodyFingerprint(new RawBody(new TextEncoder().encode("<AUTORIZACION />"), "application/xml"))).not.toBe(xml);
  });
});

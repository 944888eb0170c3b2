import { afterEach, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { schemasDir as bundledSchemasDir } from "@timbre/sii-data";
import { nativeXsdAvailable, schemasAvailable, schemasDir, validateXsd, type XsdEngine, type XsdRoot } from "../src/index.js";

/** The in-repository test documents (`packages/sii-data/fixtures`). */
const samplesPath = (name: string): string =>
  fileURLToPath(new URL(`../../sii-data/fixtures/${name}`, import.meta.url));
const sample = (name: string): Uint8Array => new Uint8Array(readFileSync(samplesPath(name)));
/** Exact ISO-8859-1 decoding (TextDecoder("latin1") is really windows-1252). */
const latin1 = (bytes: Uint8Array): string => {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
};

const REAL = [
  "DTE--60910000-1--33--2336600",
  "DTE--76354771-K--33--170",
  "DTE--76399752-9--33--25568",
  "DTE--96670340-7--61--110616",
];

describe("the schemas folder", () => {
  const saved = process.env["TIMBRE_SII_SCHEMAS"];
  const scratch: string[] = [];
  afterEach(() => {
    if (saved === undefined) delete process.env["TIMBRE_SII_SCHEMAS"];
    else process.env["TIMBRE_SII_SCHEMAS"] = saved;
    for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "timbre-xsd-"));
    scratch.push(dir);
    return dir;
  };

  test("by default, the copy bundled in @timbre/sii-data", () => {
    delete process.env["TIMBRE_SII_SCHEMAS"];
    expect(schemasAvailable()).toBe(true);
    expect(schemasDir()).toBe(bundledSchemasDir());
    expect(schemasDir()).toMatch(/packages\/sii-data\/schemas$/);
  });

  test("TIMBRE_SII_SCHEMAS points elsewhere, and the validator reads the schemas there", async () => {
    const dir = tempDir();
    for (const name of readdirSync(bundledSchemasDir())) copyFileSync(join(bundledSchemasDir(), name), join(dir, name));
    process.env["TIMBRE_SII_SCHEMAS"] = dir;
    expect(schemasDir()).toBe(dir);
    expect(await validateXsd(sample("F60T33-ejemplo-oficial-SII.xml"), "EnvioDTE")).toEqual({ valid: true, errors: [] });
  });

  test("TIMBRE_SII_SCHEMAS at an empty folder: not available, and the error names the setting and the files", async () => {
    const dir = tempDir();
    process.env["TIMBRE_SII_SCHEMAS"] = dir;
    expect(schemasAvailable()).toBe(false);
    expect(() => schemasDir()).toThrow(/TIMBRE_SII_SCHEMAS/);
    expect(() => schemasDir()).toThrow(/EnvioDTE_v10\.xsd.*EnvioBOLETA_v11\.xsd/);
    await expect(validateXsd(sample("F60T33-ejemplo-oficial-SII.xml"), "EnvioDTE")).rejects.toThrow(/TIMBRE_SII_SCHEMAS/);
  });
});

test("the system's libxml2 is found here (the fast engine the sandbox SII validates with)", () => {
  expect(nativeXsdAvailable()).toBe(true);
});

// Both engines give the same answers to every case.
for (const engine of ["libxml2", "wasm"] as XsdEngine[]) {
describe(`validateXsd (${engine})`, () => {
  const validate = (xml: string | Uint8Array, root: XsdRoot) => validateXsd(xml, root, { engine });

  test("the official SII example validates as EnvioDTE (bytes and string)", async () => {
    const bytes = sample("F60T33-ejemplo-oficial-SII.xml");
    expect(await validate(bytes, "EnvioDTE")).toEqual({ valid: true, errors: [] });
    expect(await validate(latin1(bytes), "EnvioDTE")).toEqual({ valid: true, errors: [] });
  });

  test.each([
    ["synthetic/EnvioDTE-T33F1.xml", "EnvioDTE"],
    ["synthetic/EnvioDTE-T33F1-no-xsi.xml", "EnvioDTE"],
    ["synthetic/EnvioBOLETA-T39F1.xml", "EnvioBOLETA"],
    ["synthetic/DTE-T33F1.xml", "DTE"],
    ["synthetic/DTE-T33F1.xml", "EnvioDTE"],
  ] as const)("%s validates as %s", async (name, root) => {
    const result = await validate(sample(name), root);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test.each(REAL)("real %s--cleaned validates as DTE", async (name) => {
    const result = await validate(sample(`${name}--cleaned.xml`), "DTE");
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test.each(REAL)("real %s raw (no SiiDte namespace) fails", async (name) => {
    const result = await validate(sample(`${name}.xml`), "DTE");
    expect(result.valid).toBe(false);
    expect(result.errors.join("\n")).toContain("No matching global declaration available for the validation root");
  });

  test("a boleta DTE alone does not validate as EnvioBOLETA", async () => {
    const result = await validate(sample("synthetic/DTE-T39F1.xml"), "EnvioBOLETA");
    expect(result.valid).toBe(false);
  });

  test("a broken copy (RUTEmisor removed) fails with a message naming the element", async () => {
    const text = latin1(sample("F60T33-ejemplo-oficial-SII.xml"));
    const broken = text.replace(/<RUTEmisor>[^<]*<\/RUTEmisor>/, "");
    expect(broken).not.toBe(text);
    const result = await validate(broken, "EnvioDTE");
    expect(result.valid).toBe(false);
    expect(result.errors.length).toBeGreaterThan(0);
    expect(result.errors.join("\n")).toMatch(/line \d+: .*RznSoc.*This element is not expected. Expected is .*RUTEmisor/);
  });

  test("non-Latin-1 text: string and bytes of a Latin-1 document give the same answer", async () => {
    // "Crédito" in a real DTE: the string path must re-encode to the same bytes, not UTF-8 under a Latin-1 label.
    const bytes = sample("DTE--96670340-7--61--110616--cleaned.xml");
    const viaString = await validate(new TextDecoder("windows-1252").decode(bytes), "DTE");
    expect(viaString).toEqual({ valid: true, errors: [] });
  });

  test("a value too long by one Latin-1 character is caught exactly (lengths count characters)", async () => {
    const text = latin1(sample("synthetic/DTE-T33F1.xml"));
    // RznSoc max 100 characters: 100 "é" fit, 101 do not (UTF-8 bytes under a Latin-1 label would fail both).
    const at = (n: number) => text.replace(/<RznSoc>[^<]*<\/RznSoc>/, `<RznSoc>${"é".repeat(n)}</RznSoc>`);
    expect((await validate(at(100), "DTE")).valid).toBe(true);
    const tooLong = await validate(at(101), "DTE");
    expect(tooLong.valid).toBe(false);
    expect(tooLong.errors.join("\n")).toContain("RznSoc");
  });

  test("not well-formed XML fails with the parser message", async () => {
    const result = await validate('<?xml version="1.0" encoding="ISO-8859-1"?><DTE><Documento></DTE>', "DTE");
    expect(result.valid).toBe(false);
    expect(result.errors.join("\n")).toMatch(/parser error/);
  });
});
}

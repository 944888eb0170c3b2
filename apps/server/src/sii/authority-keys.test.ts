import { afterAll, describe, expect, test } from "bun:test";
import { parseEmbeddedCaf, verifyCafSignature } from "@timbre/core/caf";
import { authorityCertsDir } from "@timbre/sii-data";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSiiAuthorities } from "./authority-keys.js";
import { siiFileProblems } from "./required-files.js";

/** A document of the in-repository fixtures (`packages/sii-data/fixtures`). */
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../../../packages/sii-data/fixtures/${name}`, import.meta.url)));

const scratch: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "timbre-sii-certs-"));
  scratch.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe("the SII's CAF authority keys", () => {
  test("by default the bundled keys, which verify real CAFs: IDK 300 in production documents, IDK 100 in the SII's example", () => {
    const keys = readSiiAuthorities(null);
    expect([...keys.keys()].sort()).toEqual([100, 300]);
    const production = parseEmbeddedCaf(fixture("DTE--60910000-1--33--2336600.xml"));
    expect(production.idk).toBe(300);
    expect(() => verifyCafSignature(production, [keys.get(300)!])).not.toThrow();
    const certification = parseEmbeddedCaf(fixture("F60T33-ejemplo-oficial-SII.xml"));
    expect(certification.idk).toBe(100);
    expect(() => verifyCafSignature(certification, [keys.get(100)!])).not.toThrow();
  });

  test("TIMBRE_SII_CERTS_DIR overrides the bundled folder", () => {
    const dir = tempDir();
    for (const name of ["100.pub.pem", "300.pub.pem"]) copyFileSync(join(authorityCertsDir(), name), join(dir, name));
    expect([...readSiiAuthorities(dir).keys()].sort()).toEqual([100, 300]);
  });

  test("a folder lacking a key, or holding garbage: one error naming every file and the setting", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "300.pub.pem"), "not a key");
    expect(() => readSiiAuthorities(dir)).toThrow(
      `SII authority keys not found: in ${dir} (TIMBRE_SII_CERTS_DIR), 100.pub.pem not found, 300.pub.pem is not a public key`,
    );
  });
});

describe("siiFileProblems", () => {
  const saved = process.env["TIMBRE_SII_SCHEMAS"];
  afterAll(() => {
    if (saved === undefined) delete process.env["TIMBRE_SII_SCHEMAS"];
    else process.env["TIMBRE_SII_SCHEMAS"] = saved;
  });
  const sandbox = { siiMode: "sandbox" as const, siiSandboxUrl: null };

  test("nothing set: the bundled files are found", () => {
    delete process.env["TIMBRE_SII_SCHEMAS"];
    expect(siiFileProblems({ ...sandbox, siiCertsDir: null })).toEqual([]);
  });

  test("both missing: both reported, each naming its setting; the schemas only where this process runs the sandbox", () => {
    process.env["TIMBRE_SII_SCHEMAS"] = tempDir();
    const empty = tempDir();
    const problems = siiFileProblems({ ...sandbox, siiCertsDir: empty });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain("TIMBRE_SII_CERTS_DIR");
    expect(problems[1]).toContain("TIMBRE_SII_SCHEMAS");
    // An external sandbox, or the real SII, validates the envelopes itself.
    expect(siiFileProblems({ siiMode: "sandbox", siiSandboxUrl: "http://127.0.0.1:4040", siiCertsDir: null })).toEqual([]);
    expect(siiFileProblems({ siiMode: "produccion", siiSandboxUrl: null, siiCertsDir: null })).toEqual([]);
  });
});

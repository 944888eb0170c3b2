import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { authorityCertsDir, schemasDir, wsdlDir } from "../src/index.js";

const PACKAGE_DIR = join(import.meta.dir, "..");

describe("the bundled folders", () => {
  test("schemasDir holds every XSD the validators load, with their includes", () => {
    const dir = schemasDir();
    expect(dir).toBe(join(PACKAGE_DIR, "schemas"));
    for (const name of ["EnvioDTE_v10.xsd", "DTE_v10.xsd", "SiiTypes_v10.xsd", "xmldsignature_v10.xsd", "EnvioBOLETA_v11.xsd"]) {
      expect(existsSync(join(dir, name))).toBe(true);
    }
    // Every include/import a schema names is in the folder too.
    for (const name of readdirSync(dir).filter((f) => f.endsWith(".xsd"))) {
      const text = readFileSync(join(dir, name), "latin1");
      for (const m of text.matchAll(/<xs:(?:include|import)[^>]*schemaLocation="([^"]+)"/g)) {
        expect(existsSync(join(dir, m[1] as string))).toBe(true);
      }
    }
  });

  test("wsdlDir holds the SII's published SOAP services", () => {
    expect(readdirSync(wsdlDir()).sort()).toEqual(
      ["CrSeed.wsdl", "GetTokenFromSeed.wsdl", "QueryEstDte.wsdl", "QueryEstDteAv.wsdl", "QueryEstUp.wsdl", "wsDTECorreo.wsdl"],
    );
  });

  test("authorityCertsDir holds the certificates and public keys of IDK 100 and 300", () => {
    expect(readdirSync(authorityCertsDir()).sort()).toEqual(["100.cer", "100.pub.pem", "300.cer", "300.pub.pem"]);
    for (const idk of [100, 300]) expect(readFileSync(join(authorityCertsDir(), `${idk}.pub.pem`), "utf8")).toContain("BEGIN PUBLIC KEY");
  });
});

test("the published package carries the data and leaves the test fixtures out", async () => {
  const pack = Bun.spawn(["npm", "pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: PACKAGE_DIR, stdout: "pipe", stderr: "pipe" });
  const [code, out] = await Promise.all([pack.exited, new Response(pack.stdout).text()]);
  expect(code).toBe(0);
  const files: string[] = (JSON.parse(out) as { files: { path: string }[] }[])[0]?.files.map((f) => f.path) ?? [];
  expect(files).toContain("schemas/EnvioDTE_v10.xsd");
  expect(files).toContain("schemas/EnvioBOLETA_v11.xsd");
  expect(files).toContain("wsdl/CrSeed.wsdl");
  expect(files).toContain("certs/100.pub.pem");
  expect(files).toContain("certs/300.cer");
  expect(files).toContain("README.md");
  expect(files.filter((f) => f.startsWith("fixtures/"))).toEqual([]);
}, 30_000);

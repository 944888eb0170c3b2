// The SII's list of electronic issuers as it is published (packages/sii-data/fixtures/ce_empresas_dwnld-sample.csv),
// and the files the server refuses at start.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadIssuerFile, parseIssuerFile } from "./issuer-file.js";

const SAMPLE = fileURLToPath(new URL("../../../../../packages/sii-data/fixtures/ce_empresas_dwnld-sample.csv", import.meta.url));
const latin1 = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));
const HEADER = "RUT;RAZON SOCIAL;NUMERO RESOLUCION;FECHA RESOLUCION;MAIL INTERCAMBIO;URL\r\n";

describe("the SII's list of electronic issuers (SII_ISSUERS_FILE)", () => {
  test("the published format: ISO-8859-1, dates DD-MM-YYYY with a trailing space, closing `;`, mail lower-cased, any RUT spelling", () => {
    const list = loadIssuerFile(SAMPLE);
    expect(list.lookup("76.192.083-9")).toEqual({ rut: "76192083-9", razonSocial: "SASCO SpA", resolucion: { numero: 80, fecha: "2014-08-22" }, correoIntercambio: "dte@sasco.example.cl" });
    expect(list.lookup("967902403")).toEqual({ rut: "96790240-3", razonSocial: "COMERCIALIZADORA ÑUÑOA Y CÍA. LIMITADA", resolucion: { numero: 0, fecha: "2021-03-05" }, correoIntercambio: "recepcion.dte@nunoa.example.cl" });
    expect(list.lookup("11111111-1")).toMatchObject({ razonSocial: "SIN CASILLA LTDA", correoIntercambio: null });
    // A `;` inside the razón social stays in it: the other fields are read from the end of the line.
    expect(list.lookup("78079780-0")).toMatchObject({ razonSocial: "ASESORÍAS; INVERSIONES DEL SUR SpA", resolucion: { numero: 99, fecha: "2016-12-30" }, correoIntercambio: "facturas@sur.example.cl" });
    expect(list.lookup("77777777-7")).toBeNull();
    expect(list.lookup("76192083-8")).toBeNull();
  });

  test("the row variants: no closing `;` with an empty URL, a time after the date, no resolution, a RUT listed twice (the later line)", () => {
    const list = parseIssuerFile(latin1(`${HEADER}76192083-9;SASCO SpA;80;22-08-2014 ;old@sasco.cl;\r\n96790240-3;ÑUÑOA LTDA;7;01-02-2019 10:11:12;a@b.cl;www.b.cl\r\n11111111-1;SIN RESOLUCION;;;x@y.cl;;\r\n76192083-9;SASCO SpA;80;22-08-2014 ;new@sasco.cl;www.sasco.cl;\r\n`));
    expect(list.lookup("76192083-9")?.correoIntercambio).toBe("new@sasco.cl");
    expect(list.lookup("96790240-3")).toEqual({ rut: "96790240-3", razonSocial: "ÑUÑOA LTDA", resolucion: { numero: 7, fecha: "2019-02-01" }, correoIntercambio: "a@b.cl" });
    expect(list.lookup("11111111-1")).toEqual({ rut: "11111111-1", razonSocial: "SIN RESOLUCION", resolucion: null, correoIntercambio: "x@y.cl" });
    const noUrl = parseIssuerFile(latin1(`${HEADER}76192083-9;SASCO SpA;80;22-08-2014 ;dte@sasco.cl;\n`));
    expect(noUrl.lookup("76192083-9")).toMatchObject({ resolucion: { numero: 80, fecha: "2014-08-22" }, correoIntercambio: "dte@sasco.cl" });
  });

  test("a list saved again as UTF-8 reads the same", () => {
    const list = parseIssuerFile(new TextEncoder().encode(`${HEADER}96790240-3;ÑANDÚ SpA;12;01-02-2019 ;a@b.cl;\n`));
    expect(list.lookup("96790240-3")?.razonSocial).toBe("ÑANDÚ SpA");
  });

  test("malformed files are refused naming the setting and the line", () => {
    const dir = mkdtempSync(join(tmpdir(), "timbre-issuers-"));
    const write = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, latin1(text));
      return path;
    };
    expect(() => loadIssuerFile(write("noheader.csv", "76192083-9;SASCO SpA;80;22-08-2014 ;dte@sasco.cl;;\n"))).toThrow(/^SII_ISSUERS_FILE: .*line 1: not the SII's list/);
    expect(() => loadIssuerFile(write("comma.csv", "RUT,RAZON SOCIAL,NUMERO RESOLUCION,FECHA RESOLUCION,MAIL INTERCAMBIO,URL\n"))).toThrow(/line 1/);
    expect(() => loadIssuerFile(write("short.csv", `${HEADER}76192083-9;SASCO SpA;80;22-08-2014 ;dte@sasco.cl;;\r\n76192083-9;SASCO SpA\r\n`))).toThrow(/SII_ISSUERS_FILE: .*line 3: not a row/);
    expect(() => loadIssuerFile(write("date.csv", `${HEADER}76192083-9;SASCO SpA;80;2014-08-22;dte@sasco.cl;;\n`))).toThrow(/line 2: not a row/);
    expect(() => loadIssuerFile(write("dv.csv", `${HEADER}76192083-8;SASCO SpA;80;22-08-2014 ;dte@sasco.cl;;\n`))).toThrow(/line 2: 76192083-8 is not a valid RUT/);
    expect(() => loadIssuerFile(join(dir, "missing.csv"))).toThrow(/^SII_ISSUERS_FILE: cannot read .*missing\.csv \(ENOENT\)/);
  });
});

test("the server refuses to start with a malformed SII_ISSUERS_FILE, naming the setting, before it opens its data directory", () => {
  const dir = mkdtempSync(join(tmpdir(), "timbre-issuers-start-"));
  const bad = join(dir, "ce_empresas_dwnld.csv");
  writeFileSync(bad, latin1(`${HEADER}76192083-9;SASCO SpA\n`));
  const data = join(dir, "data");
  const main = fileURLToPath(new URL("../../main.ts", import.meta.url));
  const run = Bun.spawnSync([process.execPath, main], { env: { ...process.env, SII_ISSUERS_FILE: bad, TIMBRE_DATA_DIR: data, PORT: "0", HOST: "127.0.0.1", DATABASE_URL: "" }, stdout: "pipe", stderr: "pipe" });
  expect(run.exitCode).toBe(1);
  expect(run.stderr.toString()).toContain(`timbre: SII_ISSUERS_FILE: ${bad}, line 2: not a row`);
  expect(readdirSync(dir)).toEqual(["ce_empresas_dwnld.csv"]);
}, 30_000);

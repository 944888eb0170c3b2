/**
 * The printed document over real HTTP is the stored one: the PDF417 of `/pdf` (carta and térmica) decodes to the
 * `<TED>` of the exact bytes `/xml` serves; the issuer's SII unit (`unidad_sii`) is printed under the box and its
 * branch code (`sucursal_sii`) signed in. Pages are rasterised with mupdf and the barcode read with zxing — core's
 * PDF test helpers, loaded by path.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { emitBody, emitter, serveOverHttp } from "../../../test/support/emission.js";

const pdfTools = (await import(new URL("../../../../../packages/core/test/support/pdf.ts", import.meta.url).href)) as {
  rasterize(pdf: Uint8Array, index: number, dpi: number): Uint8Array;
  decodePdf417(png: Uint8Array): Promise<string[]>;
  pageTexts(pdf: Uint8Array): string[];
};

/** The `<TED …>…</TED>` element of a stored DTE, as its bytes read (ISO-8859-1). */
function tedOf(xml: Uint8Array): string {
  const text = new TextDecoder("latin1").decode(xml);
  const match = /<TED[\s>][\s\S]*?<\/TED>/.exec(text);
  if (!match) throw new Error("no TED in the stored XML");
  return match[0];
}

describeDrivers("printed document over HTTP", (driver) => {
  let h: Harness;
  let t: Awaited<ReturnType<typeof emitter>>;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    t = await emitter(h, { tipos: [33, 39] });
  }, 60_000);
  afterAll(async () => h?.close());

  test("the PDF417 decodes to the stored TED; the SII unit and branch set on the business are printed and signed in", async () => {
    const http = serveOverHttp(h);
    try {
      const emit = async (tipo: number) => {
        const res = await http.call("POST", "/v1/dte/emit", { key: t.key.key, body: emitBody(tipo) });
        expect(res.status).toBe(201);
        return (res.json as { data: { id: string } }).data.id;
      };
      const before = await emit(33);
      const set = await http.call("PUT", `/v1/businesses/${t.business.id}`, { key: t.key.key, body: { unidad_sii: " Santiago Oriente ", sucursal_sii: 81303347 } });
      expect((set.json as { data: { unidad_sii: string } }).data.unidad_sii).toBe("Santiago Oriente");
      const after = [await emit(33), await emit(39)];
      for (const [id, unit] of [[before, "S.I.I. - PROVIDENCIA"], ...after.map((a) => [a, "S.I.I. - SANTIAGO ORIENTE"])] as const) {
        const xml = await http.call("GET", `/v1/dte/${id}/xml`, { key: t.key.key });
        expect(xml.status).toBe(200);
        expect(new TextDecoder("latin1").decode(xml.bytes).includes("<CdgSIISucur>81303347</CdgSIISucur>")).toBe(id !== before);
        for (const formato of ["carta", "termica"]) {
          const pdf = await http.call("GET", `/v1/dte/${id}/pdf?formato=${formato}`, { key: t.key.key });
          expect(pdf.status).toBe(200);
          const pages = pdfTools.pageTexts(pdf.bytes);
          expect(pages[0]).toContain(unit);
          expect(await pdfTools.decodePdf417(pdfTools.rasterize(pdf.bytes, pages.length - 1, 300))).toEqual([tedOf(xml.bytes)]);
        }
      }
    } finally {
      await http.close();
    }
  }, 60_000);
});

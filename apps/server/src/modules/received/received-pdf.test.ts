/**
 * `GET /received/{id}/pdf` over real HTTP: business B's factura, imported by A, printed from the received XML — its
 * PDF417 decodes to the TED of the bytes `/received/{id}/xml` serves, and the issuer's name, folio and total are
 * printed (mupdf rasterises, zxing reads: core's PDF test helpers, loaded by path).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { encodeLatin1 } from "@timbre/core";
import { expectError } from "../../../test/support/fixtures.js";
import { createHarness, describeDrivers, type Harness } from "../../../test/support/harness.js";
import { emitBody, emitter, RECEPTOR, serveOverHttp } from "../../../test/support/emission.js";
import { eq } from "drizzle-orm";
import { receivedDocuments } from "../../db/received.js";
import { newId } from "../../ids.js";
import { refreshDocumentStatus } from "../../dispatch/refresh-document-status.js";
import { receiverEnvelopeOf } from "../../intercambio/receiver-envelope.js";

const pdfTools = (await import(new URL("../../../../../packages/core/test/support/pdf.ts", import.meta.url).href)) as {
  rasterize(pdf: Uint8Array, index: number, dpi: number): Uint8Array;
  decodePdf417(png: Uint8Array): Promise<string[]>;
  pageTexts(pdf: Uint8Array): string[];
};

const A_RUT = "77777777-7";
const B_RUT = "76192083-9";

describeDrivers("received document PDF (API.md §12)", (driver) => {
  let h: Harness;
  let a: Awaited<ReturnType<typeof emitter>>;
  let b: Awaited<ReturnType<typeof emitter>>;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", INBOUND_DOMAIN: "in.timbre.test" });
    b = await emitter(h, { rut: B_RUT, tipos: [33] });
    a = await emitter(h, { rut: A_RUT, tipos: [] });
  }, 60_000);
  afterAll(async () => h?.close());

  test("printed from the received XML: the PDF417 is its TED; issuer, folio and total on the page; carta and térmica", async () => {
    const res = await h.call("POST", "/v1/dte/emit", { key: b.key.key, body: emitBody(33, { receptor: { ...RECEPTOR, rut: A_RUT, razon_social: "Compradora A SpA" } }) });
    const id = res.json.data.id as string;
    expect((await refreshDocumentStatus(h.deps, id))?.estado).toBe("ACEPTADO");
    const imported = await h.call("POST", "/v1/received", { key: a.key.key, raw: encodeLatin1(await receiverEnvelopeOf(h.deps, id)), headers: { "content-type": "application/xml" } });
    const received = imported.json.data.results[0].data;
    const http = serveOverHttp(h);
    try {
      const xml = await http.call("GET", `/v1/received/${received.id}/xml`, { key: a.key.key });
      const ted = /<TED[\s>][\s\S]*?<\/TED>/.exec(new TextDecoder("latin1").decode(xml.bytes))![0];
      for (const formato of ["carta", "termica"]) {
        const pdf = await http.call("GET", `/v1/received/${received.id}/pdf?formato=${formato}`, { key: a.key.key });
        expect({ status: pdf.status, text: pdf.status === 200 ? "" : pdf.text }).toEqual({ status: 200, text: "" });
        expect(pdf.headers.get("content-type")).toBe("application/pdf");
        const text = pdfTools.pageTexts(pdf.bytes).join("\n");
        expect(text).toContain(received.emisor.razon_social);
        expect(text).toContain(String(received.folio));
        expect(text.replace(/\./g, "")).toContain(String(received.monto_total));
        const pages = pdfTools.pageTexts(pdf.bytes);
        expect(await pdfTools.decodePdf417(pdfTools.rasterize(pdf.bytes, pages.length - 1, 300))).toEqual([ted]);
      }
      expectError(await h.call("GET", `/v1/received/${received.id}/pdf?formato=a4`, { key: a.key.key }), 400, "INVALID_PARAMETER");
      expectError(await h.call("GET", `/v1/received/${received.id}/pdf`, { key: b.key.key }), 404, "NOT_FOUND");
      // evidence whose XML holds no Documento: 409, never a 500
      const [evidence] = await h.deps.db.insert(receivedDocuments).values({ ...(await h.deps.db.select().from(receivedDocuments).where(eq(receivedDocuments.id, received.id)))[0]!, id: newId("received"), verified: false, xml: encodeLatin1("<DTE version=\"1.0\"><Nada/></DTE>") }).returning();
      const refused = await h.call("GET", `/v1/received/${evidence!.id}/pdf`, { key: a.key.key });
      expectError(refused, 409, "CONFLICT");
      expect(refused.json.error.details.reason).toBe("not_printable");
    } finally {
      await http.close();
    }
  }, 120_000);
});

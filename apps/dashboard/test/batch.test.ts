// The API's refusals said at their spreadsheet rows, and a sheet sent in chunks, each document under its content key (no browser).
import { afterEach, describe, expect, test } from "bun:test";
import type { EmitParams } from "@timbre/sdk";
import { withContentKeys, emissionSheetTemplate, failedRowsCsv, parseCsv, readEmissionSheet } from "@timbre/sdk/csv";
import { failedFileName, failuresOf } from "../src/lib/batch-failures.js";
import { newRun, sendSheet } from "../src/lib/send-sheet.js";

describe("failuresOf", () => {
  const sheet = readEmissionSheet(emissionSheetTemplate(";"));
  const [factura, boletaDoc] = sheet.documents;

  test("a validation error: one entry per field, at the row of the line it names, in Spanish", () => {
    const failures = failuresOf(factura!, {
      code: "VALIDATION_ERROR",
      message: "validation failed",
      details: { errors: [{ field: "receptor.rut", reason: "invalid_rut", message: "invalid check digit" }, { field: "items[1].precio", reason: "minimum", message: "must be >= 0" }] },
    });
    expect(failures.map((f) => [f.row, f.message])).toEqual([
      [2, "receptor.rut: RUT no válido (revisa el dígito verificador)."],
      [3, "item.precio: El valor es demasiado bajo."],
    ]);
    const records = parseCsv(failedRowsCsv(sheet, failures), ";");
    expect(records.map((r) => r.at(-1))).toEqual(["error", "receptor.rut: RUT no válido (revisa el dígito verificador).", "item.precio: El valor es demasiado bajo."]);
  });

  test("any other error: one entry at the document's first row (or its field's), with the dashboard's message for the code", () => {
    expect(failuresOf(boletaDoc!, { code: "FOLIOS_EXHAUSTED", message: "no folios left for tipo 39" })).toEqual([
      { document: boletaDoc!, row: 4, message: "No quedan folios disponibles para este tipo de documento. Sube un nuevo CAF." },
    ]);
    expect(failuresOf(factura!, { code: "VALIDATION_ERROR", message: "must be >= 0", details: { field: "items[1].precio", reason: "minimum" } })).toEqual([
      { document: factura!, row: 3, message: "item.precio: El valor es demasiado bajo." },
    ]);
    expect(failuresOf(factura!, { code: "REFERENCE_INVALID", message: "exceeds", details: { field: "referencia", reason: "amount_exceeds" } })).toEqual([
      { document: factura!, row: 2, message: "La nota de crédito no puede superar el total del documento." },
    ]);
    expect(failuresOf(factura!, undefined)).toEqual([{ document: factura!, row: 2, message: "El servidor no emitió el documento." }]);
  });
});

test("the failed rows of ventas.csv go to ventas.fallidos.csv, and stay there on the next run", () => {
  expect([failedFileName("ventas.csv"), failedFileName("Ventas Nov.CSV"), failedFileName("ventas.fallidos.csv"), failedFileName(".csv")]).toEqual([
    "ventas.fallidos.csv",
    "Ventas Nov.fallidos.csv",
    "ventas.fallidos.csv",
    "ventas.fallidos.csv",
  ]);
});

describe("sendSheet (fetch stubbed): documents keyed by content, as the CLI sends them", () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });
  const rows = (n: number) => ["tipo;rut;razon_social;nombre;cantidad;precio", ...Array.from({ length: n }, (_, i) => `39;66666666-6;Consumidor final;Pan;1;${i + 1}`)].join("\n");
  type Keyed = EmitParams & { idempotency_key?: string };
  /** Answers each batch with every document emitted except those priced 7, as emitted before when its key was seen. */
  const stub = (failOnRequest?: number) => {
    const requests: Keyed[][] = [];
    const seen = new Set<string>();
    globalThis.fetch = (async (_url: string, init: RequestInit) => {
      const { documents } = JSON.parse(String(init.body)) as { documents: Keyed[] };
      requests.push(documents);
      if (requests.length === failOnRequest) return Response.json({ success: false, error: { code: "UNAVAILABLE", message: "down" } }, { status: 503 });
      const results = documents.map((d, index) => {
        if (d.items[0]?.precio === 7) return { index, success: false, error: { code: "FOLIOS_EXHAUSTED", message: "none" } };
        const before = d.idempotency_key !== undefined && seen.has(d.idempotency_key);
        if (d.idempotency_key) seen.add(d.idempotency_key);
        return { index, success: true, data: { id: `dte_${d.items[0]?.precio}`, folio: d.items[0]?.precio }, ...(before ? { replayed: true } : {}) };
      });
      return Response.json({ success: true, data: { results } });
    }) as typeof fetch;
    return requests;
  };

  test("1 201 documents: three requests of ≤ 500, each document under its content's key; the same file again, the same keys, answered as emitted before", async () => {
    const requests = stub();
    const sheet = readEmissionSheet(rows(1201));
    const run = newRun();
    await sendSheet(sheet, run);
    expect(requests.map((r) => r.length)).toEqual([500, 500, 201]);
    const keys = requests.flat().map((d) => d.idempotency_key);
    expect(keys).toEqual((await withContentKeys(sheet.documents.map((d) => d.params))).map((d) => d.idempotency_key));
    expect(new Set(keys).size).toBe(1201);
    expect(run.outcomes).toHaveLength(1201);
    expect(run.outcomes.every((o) => o.result.data === undefined || o.result.data.folio === o.document.params.items[0]?.precio)).toBe(true);
    expect(run.outcomes.filter((o) => !o.result.success).map((o) => o.document.rows)).toEqual([[8]]);
    expect(run.outcomes.some((o) => o.result.replayed)).toBe(false);

    const again = newRun();
    await sendSheet(readEmissionSheet(rows(1201)), again); // the same file: the same keys, answered as emitted before
    expect(requests.slice(3).flat().map((d) => d.idempotency_key)).toEqual(keys);
    expect(again.outcomes.filter((o) => o.result.replayed)).toHaveLength(1200);

    const anew = newRun();
    await sendSheet(readEmissionSheet(rows(2)), anew, { anew: new Set([0]) }); // the first is another, equal sale: no key
    const sent = requests.slice(6).flat().map((d) => d.idempotency_key);
    expect(sent).toEqual([undefined, keys[1]]);
  });

  test("a chunk that fails keeps what the earlier chunks answered", async () => {
    const requests = stub(2);
    const run = newRun();
    const error = await sendSheet(readEmissionSheet(rows(600)), run).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "UNAVAILABLE", status: 503 });
    expect([run.outcomes.length, requests.length]).toEqual([500, 2]);
  });
});

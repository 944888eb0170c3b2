/**
 * The OpenAPI document is the contract (issue 42): every operation documented, described and declaring its errors,
 * every JSON body with examples the real server accepts, and the whole document clean under `@redocly/cli lint`'s
 * recommended rules.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CONTRACT_DOCS } from "../contract-docs.js";
import { emitter } from "../../test/support/emission.js";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { operationKeys } from "./openapi-contract.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking a JSON document

function operations(document: Json): Array<[string, Json]> {
  return Object.entries(document["paths"] as Json).flatMap(([path, ops]) => Object.entries(ops as Json).map(([method, op]): [string, Json] => [`${method.toUpperCase()} ${path}`, op as Json]));
}

/** `redocly lint` over the document: its problems as `{ ruleId, severity, message }`. */
function lint(document: Json): Array<{ ruleId: string; severity: string; message: string }> {
  const dir = mkdtempSync(join(tmpdir(), "timbre-openapi-"));
  try {
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(document));
    const cli = join(dirname(createRequire(import.meta.url).resolve("@redocly/cli/package.json")), "bin", "cli.js");
    const run = Bun.spawnSync(["node", cli, "lint", file, "--extends", "recommended", "--format", "json"], { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } });
    const out = run.stdout.toString();
    const report = JSON.parse(out.slice(out.indexOf("{"))) as { problems: Array<{ ruleId: string; severity: string; message: string }> };
    return report.problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describeDrivers("the OpenAPI contract", (driver) => {
  let h: Harness;
  let document: Json;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0" });
    document = (await h.call("GET", "/v1/openapi.json")).json;
  }, 60_000);
  afterAll(async () => h?.close());

  test("every operation has docs, and no docs name an operation that does not exist", () => {
    const keys = operationKeys(document);
    expect(keys.length).toBeGreaterThan(30);
    expect(keys.filter((key) => !CONTRACT_DOCS[key])).toEqual([]);
    expect(Object.keys(CONTRACT_DOCS).filter((key) => !keys.includes(key))).toEqual([]);
  });

  test("every operation: a summary, a description, a 4xx response in the error envelope; every JSON body: examples", () => {
    for (const [key, op] of operations(document)) {
      expect({ key, summary: typeof op["summary"] }).toEqual({ key, summary: "string" });
      expect({ key, described: String(op["description"] ?? "").length > 40 }).toEqual({ key, described: true });
      const errors = Object.entries(op["responses"] as Json).filter(([status]) => status.startsWith("4"));
      expect({ key, errors: errors.length > 0 }).toEqual({ key, errors: true });
      for (const [, response] of errors) expect(response.content["application/json"].schema.$ref).toBe("#/components/schemas/Error");
      const json = op["requestBody"]?.content?.["application/json"];
      if (json) expect({ key, examples: Object.keys(json.examples ?? {}).length > 0 }).toEqual({ key, examples: true });
    }
  });

  test("what the issue names is said where a reader looks", () => {
    const emit = document["paths"]["/v1/dte/emit"]["post"];
    const body = emit.requestBody.content["application/json"];
    expect(Object.keys(body.examples)).toEqual(expect.arrayContaining(["factura", "boleta", "nota_credito", "guia"]));
    expect(body.examples.boleta.value.precios_brutos).toBe(true);
    expect(body.examples.nota_credito.value.referencia.codigo).toBe(3);
    expect(body.examples.guia.value.traslado.tipo).toBe(1);
    // the body is any of the tipos' shapes; the classic one (33…61) first
    const classic = body.schema.anyOf[0];
    expect(classic.properties.receptor.description).toContain("`giro`, `direccion` and `comuna`");
    expect(classic.properties.referencia.properties.codigo.description).toContain("1 anula");
    expect(body.schema.anyOf.map((shape: Json) => shape["properties"].tipo.anyOf?.length ?? 1)).toEqual([7, 3, 3, 3]);
    expect(Object.keys(emit.responses)).toEqual(expect.arrayContaining(["201", "202", "400", "401", "403", "409", "422", "429"]));
    expect(emit.responses["422"].description).toContain("`FOLIOS_EXHAUSTED`");
    expect(emit.responses["201"].headers["Idempotent-Replayed"]).toBeDefined();
    const pdf = document["paths"]["/v1/dte/{id}/pdf"]["get"];
    expect(pdf.parameters.map((p: Json) => p["name"] ?? p["$ref"])).toEqual(expect.arrayContaining(["id", "formato", "cedible"]));
    expect(Object.keys(pdf.responses["200"].content)).toEqual(["application/pdf"]);
    const dte = emit.responses["201"].content["application/json"].schema.properties.data;
    expect(dte.properties.estado.enum).toEqual(["PENDIENTE", "ENVIADO", "ACEPTADO", "ACEPTADO_CON_REPAROS", "RECHAZADO"]);
    expect(dte.properties.tipo.type).toBe("integer");
    expect([33, 39, 52, 61].filter((tipo) => !dte.properties.tipo.enum.includes(tipo))).toEqual([]);
    expect(dte.properties.receptor.properties.razon_social.type).toEqual(["string", "null"]);
    const tipo = document["paths"]["/v1/dte"]["get"].parameters.find((p: Json) => p["name"] === "tipo");
    expect(tipo.schema.type).toBe("integer");
  });

  test("every emission example is accepted by the server (previewed: no folio taken)", async () => {
    const t = await emitter(h, { tipos: [33, 39, 52, 61, 110] });
    // an export's issuer names its city (CiudadOrigen)
    expect((await h.call("PUT", `/v1/businesses/${t.business.id}`, { key: t.key.key, body: { ciudad: "Santiago" } })).status).toBe(200);
    const examples = document["paths"]["/v1/dte/emit"]["post"].requestBody.content["application/json"].examples as Json;
    for (const [name, example] of Object.entries(examples)) {
      const res = await h.call("POST", "/v1/dte/preview", { key: t.key.key, body: example.value });
      expect({ name, status: res.status, error: res.json.error }).toEqual({ name, status: 200, error: undefined });
    }
  }, 60_000);

  test("@redocly/cli lint, recommended rules: no errors, every example valid against its schema", () => {
    const problems = lint(document);
    expect(problems.filter((p) => p.severity === "error")).toEqual([]);
    // the one warning left: the document names no license
    expect(problems.filter((p) => p.ruleId !== "info-license")).toEqual([]);
  }, 60_000);
});

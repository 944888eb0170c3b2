import { afterAll, beforeAll, expect, test } from "bun:test";
import { issueCaf } from "@timbre/core/caf";
import { generateAuthorityKey } from "@timbre/core/testing";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BILLION_LAUGHS, sandboxCaf, swapPrivateKey } from "../../../test/support/cafs.js";
import { createKey, expectError, tenant } from "../../../test/support/fixtures.js";
import { createHarness, describeDrivers, type Harness } from "../../../test/support/harness.js";

/** Stand-ins for the SII's IDK 100 / 300 keys, so that "real" certification and production CAFs can be made. */
const sii = { 100: generateAuthorityKey(100), 300: generateAuthorityKey(300) };
const certsDir = mkdtempSync(join(tmpdir(), "timbre-sii-certs-"));
for (const key of Object.values(sii)) writeFileSync(join(certsDir, `${key.idk}.pub.pem`), key.publicKey.export({ type: "spki", format: "pem" }));

const siiCaf = (idk: 100 | 300, desde = 1, hasta = 50) =>
  issueCaf({ authority: sii[idk], rut: "76192083-9", razonSocial: "Comercial Ejemplo SpA", tipo: 33, desde, hasta, fechaAutorizacion: "2026-01-10" }).xml;

describeDrivers("POST /v1/businesses/:id/numerations", (driver) => {
  let h: Harness;
  let t: Awaited<ReturnType<typeof tenant>>;
  let path: string;
  beforeAll(async () => {
    h = await createHarness(driver, { TIMBRE_SII_CERTS_DIR: certsDir });
    t = await tenant(h);
    path = `/v1/businesses/${t.business.id}/numerations`;
  }, 60_000);
  afterAll(async () => h?.close());

  const upload = (xml: string | Uint8Array, key = t.key.key) => h.call("POST", path, { key, raw: xml, headers: { "content-type": "application/xml" } });

  test("raw application/xml → 201 with the numeration object, never the private key", async () => {
    const res = await upload(await sandboxCaf(h, { desde: 1, hasta: 100, fechaAutorizacion: "2026-01-15" }));
    expect(res.status).toBe(201);
    const n = res.json.data;
    expect(n).toMatchObject({
      business_id: t.business.id, tipo: 33, desde: 1, hasta: 100, siguiente_folio: 1, disponibles: 100, usados: 0,
      fecha_autorizacion: "2026-01-15", vence_el: "2026-07-15", environment: "test",
    });
    expect(n.id).toMatch(/^caf_[0-9a-z]{26}$/);
    expect(Object.keys(n).sort()).toEqual(
      ["business_id", "created_at", "desde", "disponibles", "environment", "estado", "fecha_autorizacion", "hasta", "id", "siguiente_folio", "tipo", "usados", "vence_el"],
    );
    expect(res.text).not.toContain("PRIVATE KEY");
  });

  test("multipart field file, text/xml and JSON { caf_xml } are accepted; boletas never expire", async () => {
    const form = new FormData();
    form.set("file", new Blob([await sandboxCaf(h, { tipo: 39, desde: 1, hasta: 10 })]), "caf.xml");
    const multipart = await h.call("POST", path, { key: t.key.key, raw: form });
    expect(multipart.status).toBe(201);
    expect(multipart.json.data).toMatchObject({ tipo: 39, vence_el: null, estado: "activa" });
    const textXml = await h.call("POST", path, { key: t.key.key, raw: await sandboxCaf(h, { tipo: 41 }), headers: { "content-type": "text/xml; charset=ISO-8859-1" } });
    expect(textXml.status).toBe(201);
    const json = await h.call("POST", path, { key: t.key.key, body: { caf_xml: await sandboxCaf(h, { tipo: 61, razonSocial: "Compañía Ñandú Ltda." }) } });
    expect(json.status).toBe(201);
    expect(json.json.data.tipo).toBe(61);
  });

  test("Idempotency-Key on a multipart upload: the same file sent again (a new boundary) replays; another file is a reuse", async () => {
    const xml = await sandboxCaf(h, { tipo: 56, desde: 1, hasta: 10 });
    const form = (text: string) => {
      const f = new FormData();
      f.set("file", new Blob([text]), "caf.xml");
      return f;
    };
    const headers = { "idempotency-key": "caf-56-upload" };
    const first = await h.call("POST", path, { key: t.key.key, raw: form(xml), headers });
    expect(first.status).toBe(201);
    const again = await h.call("POST", path, { key: t.key.key, raw: form(xml), headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.data.id).toBe(first.json.data.id);
    const other = await h.call("POST", path, { key: t.key.key, raw: form(await sandboxCaf(h, { tipo: 56, desde: 11, hasta: 20 })), headers });
    expectError(other, 422, "IDEMPOTENCY_KEY_REUSED");
  });

  test("415 for another content type, 413 over 5 MiB, 422 required caf_xml / file", async () => {
    expectError(await h.call("POST", path, { key: t.key.key, raw: "x", headers: { "content-type": "text/plain" } }), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectError(await upload(new Uint8Array(5 * 1024 * 1024 + 1).fill(32)), 413, "PAYLOAD_TOO_LARGE");
    const empty = await h.call("POST", path, { key: t.key.key, body: {} });
    expectError(empty, 422, "VALIDATION_ERROR");
    expect(empty.json.error.details).toMatchObject({ field: "caf_xml", reason: "required" });
    const emptyXml = await upload(new Uint8Array());
    expectError(emptyXml, 422, "CAF_INVALID");
    expect(emptyXml.json.error.message).not.toContain("caf_xml");
    const noFile = await h.call("POST", path, { key: t.key.key, raw: new FormData() });
    expect(noFile.status).toBe(422);
  });

  test("422 CAF_INVALID for each tampering, with its reason", async () => {
    const reasonOf = async (xml: string) => {
      const res = await upload(xml);
      expectError(res, 422, "CAF_INVALID");
      return res.json.error.details.reason;
    };
    const genuine = await sandboxCaf(h, { desde: 500, hasta: 600 });
    expect(await reasonOf(genuine.replace("<H>600</H>", "<H>700</H>"))).toBe("signature");
    expect(await reasonOf(swapPrivateKey(genuine, await sandboxCaf(h, { desde: 500, hasta: 600 })))).toBe("key_mismatch");
    expect(await reasonOf(await sandboxCaf(h, { rut: "11111111-1", desde: 500, hasta: 600 }))).toBe("rut_mismatch");
    expect(await reasonOf(await sandboxCaf(h, { tipo: 47, desde: 500, hasta: 600 }))).toBe("unsupported_tipo");
    expect(await reasonOf(BILLION_LAUGHS)).toBe("unsafe_xml");
    expect(await reasonOf(genuine.replace("<AUTORIZACION>", '<!DOCTYPE AUTORIZACION SYSTEM "file:///etc/passwd"><AUTORIZACION>'))).toBe("unsafe_xml");
    expect(await reasonOf("<AUTORIZACION><CAF>")).toBe("malformed");
    expect(await reasonOf(siiCaf(300, 500, 600))).toBe("wrong_environment");
  });

  test("409 CONFLICT: the same range again (duplicate) and an overlapping range (overlap)", async () => {
    const first = await upload(await sandboxCaf(h, { tipo: 34, desde: 1, hasta: 100 }));
    expect(first.status).toBe(201);
    const duplicate = await upload(await sandboxCaf(h, { tipo: 34, desde: 1, hasta: 100 }));
    expectError(duplicate, 409, "CONFLICT");
    expect(duplicate.json.error.details).toMatchObject({ reason: "duplicate", numeration_id: first.json.data.id });
    const overlap = await upload(await sandboxCaf(h, { tipo: 34, desde: 100, hasta: 150 }));
    expectError(overlap, 409, "CONFLICT");
    expect(overlap.json.error.details.reason).toBe("overlap");
    expect((await upload(await sandboxCaf(h, { tipo: 34, desde: 101, hasta: 150 }))).status).toBe(201);
  });

  test("environment: IDK 100 and the sandbox serve test only, IDK 300 live only", async () => {
    const live = await createKey(h, t.user.token, t.business.id, ["*"], "live");
    expect((await upload(siiCaf(100, 1000, 1050))).status).toBe(201);
    const sandboxLive = await upload(await sandboxCaf(h, { desde: 2000, hasta: 2050 }), live.key);
    expectError(sandboxLive, 422, "CAF_INVALID");
    expect(sandboxLive.json.error.details.reason).toBe("wrong_environment");
    expect((await upload(siiCaf(100, 3000, 3050), live.key)).json.error.details.reason).toBe("wrong_environment");
    const prod = await upload(siiCaf(300, 1, 50), live.key);
    expect(prod.status).toBe(201);
    expect(prod.json.data.environment).toBe("live");
  });
});

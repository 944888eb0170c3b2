import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { businessBody, createBusiness, expectError, signUp } from "../../../test/support/fixtures.js";

const fieldsOf = (res: { json: { error: { details: { errors: Array<{ field: string; reason: string }> } } } }) =>
  res.json.error.details.errors.map((e) => `${e.field}:${e.reason}`);

describeDrivers("business texts are checked where they are stored (API.md §1 Text)", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  test("create: an emoji, a control character or a line break in an SII text → 422 with that field's path; nothing stored", async () => {
    const user = await signUp(h);
    const res = await h.call("POST", "/v1/businesses", {
      token: user.token,
      body: businessBody({
        razon_social: "Café 😀 SpA",
        giro: "Venta\u0007 de software",
        direccion: "Av. Providencia 123\nDepto 4",
        comuna: "Providencia\u0085",
        ciudad: "Santiago ☃",
        telefono: "+56 2 2345 \u200b6789",
        email: "ventas@café☕.cl",
        unidad_sii: "Santiago Oriente €",
      }),
    });
    expectError(res, 422, "VALIDATION_ERROR");
    expect(fieldsOf(res)).toEqual([
      "razon_social:charset",
      "giro:charset",
      "direccion:format",
      "comuna:charset",
      "ciudad:charset",
      "email:charset",
      "telefono:charset",
      "unidad_sii:charset",
    ]);
    expect(res.json.error.details).toMatchObject({ field: "razon_social", reason: "charset" });
    expect((await h.call("GET", "/v1/businesses", { token: user.token })).json.pagination.total).toBe(0);
  });

  test("create: Spanish text in ISO-8859-1 is fine", async () => {
    const user = await signUp(h);
    const business = await createBusiness(h, user.token, { razon_social: "Panadería Ñuñoa Ltda.", giro: "Elaboración de pan º", comuna: "Ñuñoa", ciudad: "Santiago" });
    expect(business).toMatchObject({ razon_social: "Panadería Ñuñoa Ltda.", comuna: "Ñuñoa" });
  });

  test("update: the same check on the fields sent; the business keeps its texts", async () => {
    const user = await signUp(h);
    const business = await createBusiness(h, user.token);
    const res = await h.call("PUT", `/v1/businesses/${business.id}`, { token: user.token, body: { razon_social: "Comercial 🚀 SpA", giro: "Software\u0001" } });
    expectError(res, 422, "VALIDATION_ERROR");
    expect(fieldsOf(res)).toEqual(["razon_social:charset", "giro:charset"]);
    const after = await h.call("GET", `/v1/businesses/${business.id}`, { token: user.token });
    expect(after.json.data).toMatchObject({ razon_social: business.razon_social, giro: business.giro });
    const ok = await h.call("PUT", `/v1/businesses/${business.id}`, { token: user.token, body: { razon_social: "Comercial Ñandú SpA" } });
    expect(ok.status).toBe(200);
    expect(ok.json.data.razon_social).toBe("Comercial Ñandú SpA");
  });

  test("update: the business object sent back as read → read-only fields not_allowed, unknown ones unknown, all at once", async () => {
    const user = await signUp(h);
    const business = await createBusiness(h, user.token);
    const read = (await h.call("GET", `/v1/businesses/${business.id}`, { token: user.token })).json.data;
    const res = await h.call("PUT", `/v1/businesses/${business.id}`, { token: user.token, body: { ...read, giro: "Otro giro", formaPago: 2 } });
    expectError(res, 422, "VALIDATION_ERROR");
    expect(fieldsOf(res).sort()).toEqual(["certificate:not_allowed", "created_at:not_allowed", "formaPago:unknown", "id:not_allowed", "intercambio.email:not_allowed", "intercambio.imap:not_allowed", "updated_at:not_allowed"]);
    expect((await h.call("GET", `/v1/businesses/${business.id}`, { token: user.token })).json.data.giro).toBe(read.giro);
    // what the PUT takes, taken from the same read, is accepted
    const { id: _id, certificate: _c, intercambio: _i, created_at: _ca, updated_at: _ua, ...writable } = read;
    const ok = await h.call("PUT", `/v1/businesses/${business.id}`, { token: user.token, body: { ...writable, giro: "Otro giro" } });
    expect(ok.status).toBe(200);
    expect(ok.json.data.giro).toBe("Otro giro");
  });
});

import { FormatRegistry, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { expect, test } from "bun:test";
import "../modules/dte/schemas.js"; // registers the "rut" format
import { DATE_PATTERN, issuesFromValueErrors, pointerToPath, READ_ONLY_KEYWORD, unknownFieldIssues } from "./validation.js";

test("JSON pointers become API paths", () => {
  expect(pointerToPath("/receptor/rut")).toBe("receptor.rut");
  expect(pointerToPath("/items/0/precio")).toBe("items[0].precio");
  expect(pointerToPath("")).toBe("");
});

test("reasons: required, type, enum, minimum, max_length, min_items — all at once", () => {
  const schema = Type.Object({
    tipo: Type.Union([Type.Literal(33), Type.Literal(39)]),
    receptor: Type.Object({ rut: Type.String(), razon_social: Type.String({ maxLength: 3 }) }),
    items: Type.Array(Type.Object({ nombre: Type.String(), precio: Type.Number({ minimum: 0 }) }), { minItems: 1 }),
  });
  const issues = issuesFromValueErrors(Value.Errors(schema, { tipo: 99, receptor: { razon_social: "toolong" }, items: [{ nombre: 1, precio: -1 }, {}] }));
  const map = Object.fromEntries(issues.map((i) => [i.path, i.reason]));
  expect(map).toEqual({
    tipo: "enum",
    "receptor.rut": "required",
    "receptor.razon_social": "max_length",
    "items[0].nombre": "type",
    "items[0].precio": "minimum",
    "items[1].nombre": "required",
    "items[1].precio": "required",
  });
  expect(issues.find((i) => i.path === "tipo")?.message).toBe("must be one of 33, 39");
  // the literals' type is wrong, not just the value
  expect(issuesFromValueErrors(Value.Errors(schema, { tipo: "33", receptor: { rut: "1", razon_social: "a" }, items: [{ nombre: "a", precio: 1 }] }))).toEqual([
    { path: "tipo", reason: "type", message: "must be one of 33, 39" },
  ]);
  const dated = issuesFromValueErrors(Value.Errors(Type.Object({ fecha: Type.String({ pattern: DATE_PATTERN }), code: Type.String({ pattern: "^x+$" }) }), { fecha: "24/11/2026", code: "y" }));
  expect(dated).toEqual([
    { path: "fecha", reason: "format", message: "must be a date YYYY-MM-DD" },
    { path: "code", reason: "format", message: "has the wrong format" },
  ]);
  // a format in our words, not the validator's ("Expected string to match 'rut' format")
  if (!FormatRegistry.Has("test-never")) FormatRegistry.Set("test-never", () => false);
  const formats = Type.Object({ rut: Type.String({ format: "rut" }), other: Type.String({ format: "test-never" }) });
  expect(issuesFromValueErrors(Value.Errors(formats, { rut: "76192083-1", other: "x" }))).toEqual([
    { path: "rut", reason: "invalid_rut", message: "is not a valid RUT (digits, a hyphen and the check digit: 76192083-9)" },
    { path: "other", reason: "format", message: "has the wrong format" },
  ]);
  const empty = issuesFromValueErrors(Value.Errors(schema, { tipo: 33, receptor: { rut: "1", razon_social: "a" }, items: [] }));
  expect(empty).toEqual([{ path: "items", reason: "min_items", message: expect.any(String) }]);
});

test("a union of types: the member of the value's type speaks; a value of no member's type is named by the types", () => {
  const code = Type.Union([Type.Union([Type.String({ maxLength: 3 }), Type.Integer({ minimum: 0 })]), Type.Null()]);
  const schema = Type.Object({ a: code, b: code, c: code, d: code, e: code, f: code });
  const issues = issuesFromValueErrors(Value.Errors(schema, { a: "toolong", b: -1, c: true, d: 1.5, e: "ok", f: null }));
  expect(issues.map((i) => `${i.path}:${i.reason}:${i.message}`)).toEqual([
    "a:max_length:Expected string length less or equal to 3",
    "b:minimum:Expected integer to be greater or equal to 0",
    "c:type:must be a string or an integer",
    "d:type:must be a string or an integer",
  ]);
});

test("unknown fields: every one at once, nested objects, arrays and nullable members; read-only ones are not_allowed", () => {
  const closed = { additionalProperties: false } as const;
  const schema = Type.Object(
    {
      receptor: Type.Object({ rut: Type.String() }, closed),
      items: Type.Array(Type.Object({ nombre: Type.String() }, closed)),
      resolucion: Type.Optional(Type.Union([Type.Object({ numero: Type.Integer() }, closed), Type.Null()])),
      extra: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    },
    { ...closed, [READ_ONLY_KEYWORD]: ["id", "created_at"] },
  );
  const body = {
    formaPago: 2,
    id: "biz_1",
    receptor: { rut: "1-9", foo: 1 },
    items: [{ nombre: "a" }, { nombre: "b", descuento: 5, "a/b": 1 }],
    resolucion: { numero: 1, fecha: "2026-01-01" },
    extra: { anything: true },
    created_at: "2026-01-01T00:00:00.000Z",
  };
  expect(unknownFieldIssues(schema, body)).toEqual([
    { path: "formaPago", reason: "unknown", message: "is not a field of this request" },
    { path: "id", reason: "not_allowed", message: "is read-only: it cannot be sent" },
    { path: "created_at", reason: "not_allowed", message: "is read-only: it cannot be sent" },
    { path: "receptor.foo", reason: "unknown", message: "is not a field of this request" },
    { path: "items[1].descuento", reason: "unknown", message: "is not a field of this request" },
    { path: "items[1].a/b", reason: "unknown", message: "is not a field of this request" },
    { path: "resolucion.fecha", reason: "unknown", message: "is not a field of this request" },
  ]);
  // other problems are not the walker's: a missing field or a wrong type is left to the schema's validation
  expect(unknownFieldIssues(schema, { receptor: {}, items: "x" })).toEqual([]);
  expect(unknownFieldIssues(schema, { receptor: { rut: "1-9" }, items: [], resolucion: null })).toEqual([]);
  // and the schema's validation reports them beside the unknown ones
  const all = issuesFromValueErrors(Value.Errors(schema, { receptor: { foo: 1 }, items: [] }));
  expect(all.map((i) => `${i.path}:${i.reason}`)).toEqual(["receptor.rut:required", "receptor.foo:unknown"]);
});

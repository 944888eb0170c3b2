import { Type } from "@sinclair/typebox";
import { expect, test } from "bun:test";
import { RequestShapes } from "./request-shapes.js";

const closed = { additionalProperties: false } as const;
const shapes = new RequestShapes();
shapes.load([
  { method: "POST", path: "/v1/things", hooks: { body: Type.Object({ name: Type.String() }, closed) } },
  { method: "POST", path: "/v1/things/emit", hooks: { detail: { requestBody: { content: {} } } } },
  { method: "POST", path: "/v1/things/:id/poke", hooks: {} },
  {
    method: "GET",
    path: "/v1/things",
    hooks: { query: Type.Object({ format: Type.Optional(Type.String()) }), detail: { parameters: [{ name: "page", in: "query" }, { name: "X-Business-Id", in: "header" }] } },
  },
  { method: "GET", path: "/v1/docs/json", hooks: {} },
  { method: "GET", path: "/dashboard/*", hooks: {} },
]);

test("a route's body schema: the fields it does not name are unknown", () => {
  expect(shapes.unknownBodyFields("POST", "/v1/things", { name: "a", nmae: "b" }).map((i) => `${i.path}:${i.reason}`)).toEqual(["nmae:unknown"]);
  expect(shapes.unknownBodyFields("POST", "/v1/things", { name: "a" })).toEqual([]);
  // not an object: the schema's own validation says so
  expect(shapes.unknownBodyFields("POST", "/v1/things", [1])).toEqual([]);
});

test("a body its use case validates is left to it; a route documenting no body takes no field", () => {
  expect(shapes.unknownBodyFields("POST", "/v1/things/emit", { anything: 1 })).toEqual([]);
  expect(shapes.unknownBodyFields("POST", "/v1/things/:id/poke", {})).toEqual([]);
  expect(shapes.unknownBodyFields("POST", "/v1/things/:id/poke", { a: 1, b: 2 }).map((i) => i.path)).toEqual(["a", "b"]);
});

test("query parameters: the schema's and the documented ones; headers are not parameters; pages and docs are not API routes", () => {
  const url = (q: string) => new URL(`http://localhost/v1/things?${q}`);
  expect(shapes.unknownQueryParameter("GET", "/v1/things", url("format=x&page=2"))).toBeNull();
  expect(shapes.unknownQueryParameter("GET", "/v1/things", url("page=2&X-Business-Id=biz_1"))).toBe("X-Business-Id");
  expect(shapes.unknownQueryParameter("POST", "/v1/things", url("dry_run=1"))).toBe("dry_run");
  expect(shapes.unknownQueryParameter("GET", "/v1/docs/json", url("x=1"))).toBeNull();
  expect(shapes.unknownQueryParameter("GET", "/dashboard/*", url("x=1"))).toBeNull();
  expect(shapes.unknownQueryParameter("GET", "/v1/unknown-route", url("x=1"))).toBeNull();
});

import { expect, test } from "bun:test";
import { eq, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/pglite";
import { documents } from "./documents.js";
import { StatementTemplates, statementTemplate } from "./statement-template.js";

const dialect = new PgDialect();
/** A query builder only (nothing is run). */
const db = drizzle.mock();

const sii = { estado_envio: "EPR", glosa: "Envío procesado", aceptados: 1, rechazados: 0, reparos: 0, errores: [], consultado_at: null };

/** The statement as drizzle builds it from the values themselves. */
function direct(v: { id: string; sii: object; at: Date; detalle: string | null }): SQL {
  return sql`with changed as (${db.update(documents).set({ sii: v.sii as never, nextCheckAt: v.at, estado: "ACEPTADO" }).where(eq(documents.id, v.id)).returning({ id: documents.id }).getSQL()})
    select id, ${v.detalle}::text as detalle, ${"const"}::text as k from changed`;
}

const template = statementTemplate<{ id: string; sii: object; at: Date; detalle: string | null }>(
  (p) =>
    sql`with changed as (${db.update(documents).set({ sii: p("sii") as unknown as SQL, nextCheckAt: p("at") as unknown as SQL, estado: "ACEPTADO" }).where(eq(documents.id, p("id"))).returning({ id: documents.id }).getSQL()})
    select id, ${p("detalle")}::text as detalle, ${"const"}::text as k from changed`,
);

test("a bound template gives the text and parameters drizzle gives for the same values, column encoders included", () => {
  for (const values of [
    { id: "dte_1", sii, at: new Date("2026-11-27T10:00:00.000Z"), detalle: "recibido" },
    { id: "dte_2", sii: { ...sii, glosa: "otra" }, at: new Date("2026-01-02T03:04:05.678Z"), detalle: null },
  ]) {
    const bound = dialect.sqlToQuery(template(values));
    const built = dialect.sqlToQuery(direct(values));
    expect(bound.sql).toBe(built.sql);
    expect(bound.params).toEqual(built.params);
    // The jsonb column's encoder ran (a string, not the object), as did the timestamp's.
    expect(typeof bound.params[0]).toBe("string");
    expect(bound.params).toContain("const");
  }
});

test("a missing value is refused, not bound as null", () => {
  expect(() => template({ id: "dte_1", sii, at: new Date() } as never)).toThrow('No value for placeholder "detalle"');
});

test("null goes to a column as null, past its encoder (as drizzle does)", () => {
  const bound = dialect.sqlToQuery(template({ id: "dte_1", sii, at: null as never, detalle: null }));
  const built = dialect.sqlToQuery(direct({ id: "dte_1", sii, at: null as never, detalle: null }));
  expect(bound.params).toEqual(built.params);
  expect(bound.params.filter((v) => v === null)).toHaveLength(2); // next_check_at and detalle
});

test("a text whose parameter numbers do not follow their order is refused", () => {
  expect(() => statementTemplate<{ a: number }>((p) => sql`select ${p("a")}, '$7'`)).toThrow("out of order");
});

test("StatementTemplates builds each shape once", () => {
  const templates = new StatementTemplates<{ a: number }>();
  let builds = 0;
  const build = (p: (name: "a") => unknown) => {
    builds++;
    return sql`select ${p("a")}::int`;
  };
  const first = dialect.sqlToQuery(templates.bind("one", build as never, { a: 1 }));
  const second = dialect.sqlToQuery(templates.bind("one", build as never, { a: 2 }));
  templates.bind("two", build as never, { a: 3 });
  expect(builds).toBe(2);
  expect([first.sql, first.params]).toEqual(["select $1::int", [1]]);
  expect(second.params).toEqual([2]);
});

test("inside another statement a bound template renders as drizzle would render its values there", () => {
  const values = { id: "dte_3", sii, at: new Date("2026-11-27T10:00:00.000Z"), detalle: "x" };
  const outer = (inner: SQL) => dialect.sqlToQuery(sql`select ${"before"}::text, n.* from (${inner}) n`);
  const bound = outer(template(values));
  const built = outer(direct(values));
  expect(bound.sql).toBe(built.sql);
  expect(bound.params).toEqual(built.params);
  expect(bound.sql).toContain("$2"); // numbered after the outer statement's own parameter
});

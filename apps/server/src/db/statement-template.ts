/**
 * Statements drizzle renders once and binds many times.
 *
 * drizzle turns a query into text and parameters on every call by walking its tree of SQL fragments, tables and
 * columns. For the wide statements of the emission path (a state change with its history, events and deliveries;
 * an emission round's store) that walk cost 150–220 µs of the server's thread per call (a trace of
 * `PgDialect.sqlToQuery` at ≈ 300 emissions/s, bench/RESULTS.md §6): more than the driver's own work, and paid per
 * envelope. A template is built once with a placeholder per value (`build(p)`: `p("name")` is `sql.placeholder("name")`),
 * rendered once to text, and then each call binds its values — the same text and parameters drizzle would have
 * produced, handed to drizzle as they are when the statement runs on its own (`BoundSql`).
 *
 * Values go through the encoder of the column they were set on, as drizzle does (`jsonb` columns stringify, say);
 * values that were constants in `build` keep the value they had then. A template's text must not depend on the
 * values: what changes its shape (which columns are set, an optional CTE) is the caller's key for another template.
 */
import { is, Param, Placeholder, SQL, sql, StringChunk } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

const dialect = new PgDialect();

/** What `build` receives: the placeholder of a value, by name. */
export type Placeholders<V> = (name: keyof V & string) => Placeholder;

export type BoundStatement<V> = (values: V) => SQL;

/**
 * `build` rendered once; the returned function binds `values` (every placeholder `build` used must be given).
 *
 * @example
 * const touch = statementTemplate<{ id: string; at: Date }>((p) => sql`update t set at = ${p("at")} where id = ${p("id")}`);
 * await db.execute(touch({ id, at }));
 */
export function statementTemplate<V extends Record<string, unknown>>(build: (p: Placeholders<V>) => SQL): BoundStatement<V> {
  const query = dialect.sqlToQuery(build((name) => sql.placeholder(name)));
  const pieces = query.sql.split(/\$(\d+)/);
  // Pieces alternate text, parameter number: the numbers must be 1, 2, 3… in order (no `$n` inside a literal).
  for (let i = 1; i < pieces.length; i += 2) {
    if (Number(pieces[i]) !== (i + 1) / 2) throw new Error(`statementTemplate: parameter $${pieces[i]} out of order`);
  }
  if ((pieces.length - 1) / 2 !== query.params.length) throw new Error("statementTemplate: parameters do not match the text");
  const texts = pieces.filter((_, i) => i % 2 === 0).map((text) => new StringChunk(text));
  return (values) => {
    const bound = query.params.map((param) => bind(param, values));
    const chunks: unknown[] = [texts[0]];
    for (let k = 0; k < bound.length; k++) chunks.push(new Param(bound[k]), texts[k + 1]);
    return new BoundSql(chunks as SQL["queryChunks"], { sql: query.sql, params: bound });
  };
}

/**
 * The bound statement: its pieces are those of the rendered text (so it renders the same wherever drizzle walks it,
 * inside another statement too), but run on its own drizzle asks it for its text and gets the one rendered once,
 * without walking the pieces again (that walk, over ≈ 30 pieces, was still ≈ 90 µs a call).
 */
class BoundSql extends SQL {
  readonly #query: { sql: string; params: unknown[] };

  constructor(chunks: SQL["queryChunks"], query: { sql: string; params: unknown[] }) {
    super(chunks);
    this.#query = query;
  }

  override toQuery(): { sql: string; params: unknown[] } {
    return this.#query;
  }
}

/** A parameter's value: the placeholder's value (through its column's encoder, null as null), or the constant. */
function bind(param: unknown, values: Record<string, unknown>): unknown {
  const placeholder = is(param, Placeholder) ? param : is(param, Param) && is(param.value, Placeholder) ? param.value : null;
  if (placeholder === null) return param;
  if (!(placeholder.name in values)) throw new Error(`No value for placeholder "${placeholder.name}" was provided`);
  const value = values[placeholder.name];
  return value === null || placeholder === param ? value : (param as Param).encoder.mapToDriverValue(value);
}

/** Templates by a key that says their shape, built on first use. */
export class StatementTemplates<V extends Record<string, unknown>> {
  readonly #byShape = new Map<string, BoundStatement<V>>();

  bind(shape: string, build: (p: Placeholders<V>) => SQL, values: V): SQL {
    let bound = this.#byShape.get(shape);
    if (bound === undefined) this.#byShape.set(shape, (bound = statementTemplate(build)));
    return bound(values);
  }
}

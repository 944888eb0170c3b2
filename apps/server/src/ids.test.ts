import { expect, test } from "bun:test";
import { ID_PREFIXES, isId, newId, ulid } from "./ids.js";

test("prefixed lowercase ULIDs, sortable by time", () => {
  for (const kind of Object.keys(ID_PREFIXES) as (keyof typeof ID_PREFIXES)[]) {
    const id = newId(kind);
    expect(id).toMatch(new RegExp(`^${ID_PREFIXES[kind]}[0-9a-z]{26}$`));
    expect(isId(kind, id)).toBe(true);
  }
  expect(ulid(1000) < ulid(2000)).toBe(true);
  expect(new Set(Array.from({ length: 1000 }, () => newId("document"))).size).toBe(1000);
});

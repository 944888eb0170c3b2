import { describe, expect, test } from "bun:test";
import type { Caf } from "@timbre/core/caf";
import type { AllocatedRun } from "./allocate-folio.js";
import { FolioForecast } from "./folio-forecast.js";

const cafA = { tag: "A" } as unknown as Caf;
const cafB = { tag: "B" } as unknown as Caf;
const run = (numerationId: string, first: number, count: number, hasta: number, caf = cafA): AllocatedRun => ({ numerationId, first, count, hasta, caf, becameLow: false });
const folios = (f: ReturnType<FolioForecast["take"]>) => f?.map((x) => `${x.numerationId}:${x.folio}`) ?? null;

describe("folio forecast", () => {
  test("knows nothing before a group's first allocation", () => {
    expect(new FolioForecast().take("g", 1)).toBeNull();
  });

  test("after an allocation, forecasts the following folios of the same range, each forecast after the previous one", () => {
    const f = new FolioForecast();
    f.learn("g", [run("n1", 1, 3, 10)], null);
    expect(folios(f.take("g", 2))).toEqual(["n1:4", "n1:5"]);
    expect(folios(f.take("g", 2))).toEqual(["n1:6", "n1:7"]);
    expect(f.take("g", 1)?.[0]?.caf).toBe(cafA);
    expect(f.take("other", 1)).toBeNull();
  });

  test("never crosses the range's end: the last folios fit, one more does not", () => {
    const f = new FolioForecast();
    f.learn("g", [run("n1", 1, 5, 10)], null);
    expect(f.take("g", 6)).toBeNull();
    expect(folios(f.take("g", 5))).toEqual(["n1:6", "n1:7", "n1:8", "n1:9", "n1:10"]);
    expect(f.take("g", 1)).toBeNull();
  });

  test("an allocation where the forecast had it changes nothing: rounds forecast further ahead keep their folios", () => {
    const f = new FolioForecast();
    f.learn("g", [run("n1", 1, 1, 100)], null);
    const first = f.take("g", 3); // 2..4
    expect(folios(f.take("g", 2))).toEqual(["n1:5", "n1:6"]); // a second round in flight
    f.learn("g", [run("n1", 2, 3, 100)], first);
    expect(folios(f.take("g", 1))).toEqual(["n1:7"]);
  });

  test("an allocation elsewhere (another process took folios, a round rolled back) restarts the forecast from it", () => {
    const f = new FolioForecast();
    f.learn("g", [run("n1", 1, 1, 100)], null);
    const guessed = f.take("g", 2); // 2..3, but another process took 2..6
    f.learn("g", [run("n1", 7, 2, 100)], guessed);
    expect(folios(f.take("g", 1))).toEqual(["n1:9"]);
  });

  test("a run that ends in the next range forecasts in that range with its CAF", () => {
    const f = new FolioForecast();
    f.learn("g", [run("n1", 9, 2, 10), run("n2", 11, 3, 50, cafB)], null);
    const next = f.take("g", 1);
    expect(folios(next)).toEqual(["n2:14"]);
    expect(next?.[0]?.caf).toBe(cafB);
  });

  test("an allocation that found no folios forgets the group", () => {
    const f = new FolioForecast();
    f.learn("g", [run("n1", 1, 1, 100)], null);
    f.learn("g", [], null);
    expect(f.take("g", 1)).toBeNull();
  });

  test("folios taken one by one are the last run while nothing else was taken and the forecast was not reset", () => {
    const f = new FolioForecast();
    f.learn("g", [run("n1", 1, 1, 100)], null);
    const one = [f.take("g", 1), f.take("g", 1), f.take("g", 1)].flatMap((x) => x ?? []);
    expect(folios(one)).toEqual(["n1:2", "n1:3", "n1:4"]);
    expect(f.isLastRun("g", one)).toBe(true);
    expect(f.isLastRun("g", one.slice(1))).toBe(true);
    expect(f.isLastRun("g", [one[0], one[2]].flatMap((x) => x ?? []))).toBe(false); // a gap
    expect(f.isLastRun("g", [one[1], one[0], one[2]].flatMap((x) => x ?? []))).toBe(false); // out of order
    expect(f.isLastRun("g", one.slice(0, 2))).toBe(false); // not the last: 4 was taken after them
    expect(f.isLastRun("other", one)).toBe(false);
    expect(f.isLastRun("g", [])).toBe(false);
  });

  test("after a reset the folios of the earlier forecast are no longer its last run, even where the numbers match", () => {
    const f = new FolioForecast();
    f.learn("g", [run("n1", 1, 1, 100)], null);
    const guessed = f.take("g", 2) ?? []; // 2..3
    f.learn("g", [run("n1", 1, 3, 100)], null); // the same end, learnt anew (a round that forecast nothing)
    expect(f.isLastRun("g", guessed)).toBe(false);
    f.forget("g");
    expect(f.isLastRun("g", guessed)).toBe(false);
  });

  test("a forecast is steady once a round held with it, and no longer after a reset", () => {
    const f = new FolioForecast();
    expect(f.steady("g")).toBe(false);
    f.learn("g", [run("n1", 1, 1, 100)], null);
    expect(f.steady("g")).toBe(false); // learnt, not yet proven
    const first = f.take("g", 2) ?? [];
    f.held("g", first);
    expect(f.steady("g")).toBe(true);
    const guessed = f.take("g", 1); // 4, but another process took 4..5
    f.learn("g", [run("n1", 4, 2, 100)], guessed);
    expect(f.steady("g")).toBe(false);
    f.held("g", first); // a round of the older generation says nothing of the new one
    expect(f.steady("g")).toBe(false);
    const right = f.take("g", 2); // 6..7
    f.learn("g", [run("n1", 6, 2, 100)], right); // a round that allocated what it forecast
    expect(f.steady("g")).toBe(true);
  });
});

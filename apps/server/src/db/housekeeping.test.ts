import { expect, test } from "bun:test";
import { nowAndThen } from "./housekeeping.js";

test("housekeeping runs with the given chance, in the background, and a failure goes nowhere", async () => {
  const ran: string[] = [];
  nowAndThen(0.01, async () => ran.push("drawn"), () => 0.005);
  nowAndThen(0.01, async () => ran.push("not drawn"), () => 0.5);
  expect(ran).toEqual([]); // not before the caller goes on
  let failed = false;
  nowAndThen(1, () => {
    failed = true;
    throw new Error("database down");
  });
  nowAndThen(1, () => Promise.reject(new Error("database down")));
  await new Promise((r) => setTimeout(r, 5));
  expect(ran).toEqual(["drawn"]);
  expect(failed).toBe(true);
});

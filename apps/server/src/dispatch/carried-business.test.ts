import { expect, test } from "bun:test";
import type { BusinessRow } from "../db/businesses.js";
import { carriedBusiness } from "./upload-envelope.js";

const row = (id: string, updatedAt: string) => ({ id, updatedAt: new Date(updatedAt) }) as BusinessRow;
const group = { businessId: "biz_a", environment: "test" as const, kind: "EnvioDTE" as const };

test("an upload uses the business row its emissions carried only when every item carries the same version of it", () => {
  const a1 = row("biz_a", "2026-11-24T10:00:00Z");
  const a1Again = row("biz_a", "2026-11-24T10:00:00Z"); // read by another round: another object, same version
  const a2 = row("biz_a", "2026-11-24T10:00:05Z"); // the business changed (e.g. a new certificate) in between
  expect(carriedBusiness(group, [{ id: "d1", business: a1 }, { id: "d2", business: a1Again }])).toBe(a1);
  expect(carriedBusiness(group, [{ id: "d1", business: a1 }, { id: "d2", business: a2 }])).toBeUndefined();
  expect(carriedBusiness(group, [{ id: "d1", business: a1 }, { id: "d2" }])).toBeUndefined(); // the dispatcher's
  expect(carriedBusiness(group, [{ id: "d1", business: row("biz_b", "2026-11-24T10:00:00Z") }])).toBeUndefined();
  expect(carriedBusiness(group, [])).toBeUndefined();
});

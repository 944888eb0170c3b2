import { expect, test } from "bun:test";
import { chileToday } from "./time.js";

test("chileToday: the civil date in America/Santiago (summer UTC−3, winter UTC−4)", () => {
  expect(chileToday(new Date("2026-01-01T02:59:00Z"))).toBe("2025-12-31");
  expect(chileToday(new Date("2026-01-01T03:00:00Z"))).toBe("2026-01-01");
  expect(chileToday(new Date("2026-07-01T03:59:00Z"))).toBe("2026-06-30");
  expect(chileToday(new Date("2026-07-01T04:00:00Z"))).toBe("2026-07-01");
});

test("chileToday answers each second alike, however the instants asked jump around midnight", () => {
  expect(chileToday(new Date("2026-01-01T02:59:59.100Z"))).toBe("2025-12-31");
  expect(chileToday(new Date("2026-01-01T02:59:59.900Z"))).toBe("2025-12-31");
  expect(chileToday(new Date("2026-01-01T03:00:00.000Z"))).toBe("2026-01-01");
  expect(chileToday(new Date("2026-01-01T02:59:59.500Z"))).toBe("2025-12-31");
  expect(chileToday(new Date("2026-07-01T04:00:00.000Z"))).toBe("2026-07-01");
});

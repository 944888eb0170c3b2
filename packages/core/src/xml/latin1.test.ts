import { describe, expect, test } from "bun:test";
import { isTimbreError } from "../errors/index.js";
import { decodeLatin1, encodeLatin1 } from "./latin1.js";

describe("latin1", () => {
  test("round-trips every ISO-8859-1 character", () => {
    const all = Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join("");
    const bytes = encodeLatin1(all);
    expect(bytes.length).toBe(256);
    expect(bytes[0xf1]).toBe(0xf1);
    expect(decodeLatin1(bytes)).toBe(all);
  });

  test("0x80–0x9F decode as C1 controls, not windows-1252", () => {
    expect(decodeLatin1(new Uint8Array([0x80]))).toBe("\u0080");
  });

  test("refuses characters outside Latin-1 with CHARSET", () => {
    try {
      encodeLatin1("precio 10 €");
      throw new Error("expected CHARSET");
    } catch (e) {
      expect(isTimbreError(e, "CHARSET")).toBe(true);
    }
  });
});

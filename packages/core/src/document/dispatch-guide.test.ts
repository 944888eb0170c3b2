import { describe, expect, test } from "bun:test";
import * as root from "@timbre/core";
import * as entry from "@timbre/core/document";
import { DISPATCH_KINDS, dispatchKindLabel, isDispatchKind, isTransferKind, TRANSFER_KINDS, transferKindLabel } from "./dispatch-guide.js";
import { isDispatchGuide, isExemptTipo, isNote, isReceipt, TIPOS } from "./types.js";

describe("guía de despacho codes", () => {
  test("IndTraslado 1–9 and TipoDespacho 1–3 in the SII's words (formato DTE v2.2, IdDoc 6 and 7)", () => {
    // every code of the formato's tables has its words, and nothing else
    expect(Object.keys(TRANSFER_KINDS).map(Number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(Object.keys(DISPATCH_KINDS).map(Number)).toEqual([1, 2, 3]);
    expect(transferKindLabel(1)).toBe("Operación constituye venta");
    expect(transferKindLabel(5)).toBe("Traslados internos");
    expect(transferKindLabel(10)).toBe("10");
    expect(dispatchKindLabel(3)).toBe("Por cuenta del emisor a otras instalaciones");
    expect([0, 1, 9, 10, 1.5, "1", null].map(isTransferKind)).toEqual([false, true, true, false, false, false, false]);
    expect([0, 1, 3, 4, "2"].map(isDispatchKind)).toEqual([false, true, true, false, false]);
  });

  test("52 is issued, is a guía, and neither a receipt, an exempt tipo nor a note", () => {
    expect(TIPOS).toContain(52);
    expect(TIPOS.filter(isDispatchGuide)).toEqual([52]);
    expect([isReceipt(52), isExemptTipo(52), isNote(52)]).toEqual([false, false, false]);
  });

  test("exported from @timbre/core/document (a dashboard's selects need nothing else) and from the root", () => {
    for (const m of [root, entry]) {
      expect(m.TRANSFER_KINDS).toBe(TRANSFER_KINDS);
      expect(m.DISPATCH_KINDS).toBe(DISPATCH_KINDS);
      expect(m.isDispatchGuide(52)).toBe(true);
      expect(m.TIPOS).toContain(52);
    }
  });
});

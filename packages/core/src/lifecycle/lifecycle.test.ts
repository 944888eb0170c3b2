import { describe, expect, test } from "bun:test";
import { isTimbreError } from "../errors/index.js";
import {
  DOCUMENT_STATES,
  canTransition,
  isDocumentState,
  isFinalState,
  stateFromDocumentStatus,
  stateFromEnvelopeStatus,
  stateFromUploadStatus,
  transition,
  type DocumentState,
} from "./index.js";

describe("transition table (every pair)", () => {
  const allowed = new Set([
    "PENDIENTE>ENVIADO",
    "PENDIENTE>RECHAZADO",
    "ENVIADO>ACEPTADO",
    "ENVIADO>ACEPTADO_CON_REPAROS",
    "ENVIADO>RECHAZADO",
  ]);
  for (const from of DOCUMENT_STATES) {
    for (const to of DOCUMENT_STATES) {
      const ok = allowed.has(`${from}>${to}`);
      test(`${from} → ${to}: ${ok ? "allowed" : "INVALID_TRANSITION"}`, () => {
        expect(canTransition(from, to)).toBe(ok);
        if (ok) expect(transition(from, to)).toBe(to);
        else {
          let err: unknown;
          try {
            transition(from, to);
          } catch (e) {
            err = e;
          }
          expect(isTimbreError(err, "INVALID_TRANSITION")).toBe(true);
        }
      });
    }
  }
  test("final states", () => {
    const finals = DOCUMENT_STATES.filter((s) => isFinalState(s));
    expect(finals).toEqual(["ACEPTADO", "ACEPTADO_CON_REPAROS", "RECHAZADO"]);
    for (const s of finals) expect(DOCUMENT_STATES.some((to) => canTransition(s, to))).toBe(false);
  });
  test("isDocumentState", () => {
    expect(isDocumentState("ENVIADO")).toBe(true);
    expect(isDocumentState("enviado")).toBe(false);
    expect(isDocumentState(3)).toBe(false);
  });
});

describe("stateFromUploadStatus (every STATUS)", () => {
  const table: Array<[number | string, string, DocumentState, boolean?]> = [
    [0, "sent", "ENVIADO"],
    ["0", "sent", "ENVIADO"],
    [1, "refused", "RECHAZADO"],
    [6, "refused", "RECHAZADO"],
    [7, "refused", "RECHAZADO"],
    ["8", "refused", "RECHAZADO"],
    [2, "retry", "PENDIENTE", false],
    [3, "retry", "PENDIENTE", false],
    [9, "retry", "PENDIENTE", false],
    [5, "retry", "PENDIENTE", true],
    ["html", "retry", "PENDIENTE", true],
    [99, "unknown", "PENDIENTE"],
    [4, "unknown", "PENDIENTE"],
    ["garbage", "unknown", "PENDIENTE"],
  ];
  for (const [status, kind, state, reauth] of table) {
    test(`${String(status)} → ${kind}`, () => {
      const v = stateFromUploadStatus(status);
      expect(v.kind as string).toBe(kind);
      expect(v.state as DocumentState | null).toBe(state);
      if (v.kind === "retry") expect(v.reauthenticate).toBe(reauth ?? false);
      if (v.kind === "unknown") expect(v.reconcile).toBe(true);
      if (v.kind !== "unknown" && v.kind !== "retry") expect(canTransition("PENDIENTE", v.state)).toBe(true);
    });
  }
});

describe("stateFromEnvelopeStatus", () => {
  const one = (a: number, r: number, p: number) => ({ informados: 1, aceptados: a, rechazados: r, reparos: p });
  const table: Array<[string, Parameters<typeof stateFromEnvelopeStatus>[0], string, DocumentState]> = [
    ["REC", { estado: "REC" }, "processing", "ENVIADO"],
    ["SOK", { estado: "SOK" }, "processing", "ENVIADO"],
    ["CRT", { estado: "CRT" }, "processing", "ENVIADO"],
    ["FOK", { estado: "FOK" }, "processing", "ENVIADO"],
    ["PDR", { estado: "PDR" }, "processing", "ENVIADO"],
    ["PRD", { estado: "PRD" }, "processing", "ENVIADO"],
    ["-11 ERR_CODE 2", { estado: "-11", errCode: 2 }, "processing", "ENVIADO"],
    ["-11 ERR_CODE '0'", { estado: "-11", errCode: "0" }, "processing", "ENVIADO"],
    ["-11 ERR_CODE 1", { estado: "-11", errCode: 1 }, "unknown", "ENVIADO"],
    ["-3 internal", { estado: "-3" }, "processing", "ENVIADO"],
    ["001 token", { estado: "001" }, "processing", "ENVIADO"],
    ["EPR 1 accepted", { estado: "EPR", ...one(1, 0, 0) }, "final", "ACEPTADO"],
    ["EPR 1 rejected", { estado: "EPR", ...one(0, 1, 0) }, "final", "RECHAZADO"],
    ["EPR 1 reparos (counted in aceptados)", { estado: "EPR", informados: 1, aceptados: 1, rechazados: 0, reparos: 1 }, "final", "ACEPTADO_CON_REPAROS"],
    ["EPR 1 reparos (not in aceptados)", { estado: "EPR", ...one(0, 0, 1) }, "final", "ACEPTADO_CON_REPAROS"],
    ["EPR 3 all accepted", { estado: "EPR", informados: 3, aceptados: 3, rechazados: 0, reparos: 0 }, "final", "ACEPTADO"],
    ["EPR 3 all rejected", { estado: "EPR", informados: 3, aceptados: 0, rechazados: 3, reparos: 0 }, "final", "RECHAZADO"],
    ["EPR mixed accepted/rejected", { estado: "EPR", informados: 3, aceptados: 2, rechazados: 1, reparos: 0 }, "unresolved", "ENVIADO"],
    ["EPR mixed accepted/reparos", { estado: "EPR", informados: 3, aceptados: 3, rechazados: 0, reparos: 1 }, "unresolved", "ENVIADO"],
    ["EPR counts incomplete", { estado: "EPR", informados: 3, aceptados: 2, rechazados: 0, reparos: 0 }, "unresolved", "ENVIADO"],
    ["EPR no counts", { estado: "EPR" }, "unresolved", "ENVIADO"],
    ["EPR zero informados", { estado: "EPR", informados: 0, aceptados: 0, rechazados: 0, reparos: 0 }, "unresolved", "ENVIADO"],
    ["EPR without informados", { estado: "EPR", aceptados: 1, rechazados: 0 }, "final", "ACEPTADO"],
    ["RPR", { estado: "RPR" }, "final", "ACEPTADO_CON_REPAROS"],
    ["RLV", { estado: "rlv" }, "final", "ACEPTADO_CON_REPAROS"],
    ["RSC", { estado: "RSC" }, "final", "RECHAZADO"],
    ["RFR", { estado: "RFR" }, "final", "RECHAZADO"],
    ["RCT", { estado: "RCT" }, "final", "RECHAZADO"],
    ["VOF", { estado: "VOF" }, "final", "RECHAZADO"],
    ["RCH", { estado: "RCH" }, "final", "RECHAZADO"],
    ["RCO", { estado: "RCO" }, "final", "RECHAZADO"],
    ["RPT", { estado: "RPT" }, "final", "RECHAZADO"],
    ["unknown XYZ", { estado: "XYZ" }, "unknown", "ENVIADO"],
  ];
  for (const [name, input, kind, state] of table) {
    test(`${name} → ${kind} ${state}`, () => {
      const v = stateFromEnvelopeStatus(input);
      expect(v.kind as string).toBe(kind);
      expect(v.state as DocumentState | null).toBe(state);
      if (v.kind === "final") expect(canTransition("ENVIADO", v.state)).toBe(true);
    });
  }
  test("envelope-level rejections are flagged, document-level ones are not", () => {
    for (const e of ["RSC", "RFR", "RCT", "VOF"]) expect(stateFromEnvelopeStatus({ estado: e })).toMatchObject({ envelopeLevel: true, hint: expect.stringContaining("re-send") });
    for (const e of ["RCH", "RCO"]) expect(stateFromEnvelopeStatus({ estado: e })).toMatchObject({ envelopeLevel: false });
    // A repeated file registers nothing of its own: its documents stand as the first upload left them.
    expect(stateFromEnvelopeStatus({ estado: "RPT" })).toMatchObject({ envelopeLevel: true, hint: expect.stringContaining("QueryEstDte") });
  });
  test("token errors ask for re-authentication", () => {
    for (const e of ["001", "002", "003"]) expect(stateFromEnvelopeStatus({ estado: e })).toMatchObject({ kind: "processing", reauthenticate: true });
  });
  test("per-type counts: forDocument picks its type", () => {
    const input = {
      estado: "EPR",
      porTipo: [
        { tipo: 33, informados: 2, aceptados: 2, rechazados: 0, reparos: 0 },
        { tipo: 61, informados: 1, aceptados: 0, rechazados: 1, reparos: 0 },
      ],
    };
    expect(stateFromEnvelopeStatus(input, { tipo: 33 }).state).toBe("ACEPTADO");
    expect(stateFromEnvelopeStatus(input, { tipo: 61 }).state).toBe("RECHAZADO");
    expect(stateFromEnvelopeStatus(input, { tipo: 56 })).toMatchObject({ kind: "unresolved", reason: "no_counts" });
    expect(stateFromEnvelopeStatus(input)).toMatchObject({ kind: "unresolved", reason: "mixed_counts" });
    expect(stateFromEnvelopeStatus({ estado: "EPR", porTipo: [input.porTipo[0]!] }).state).toBe("ACEPTADO");
  });
});

describe("stateFromDocumentStatus (QueryEstDte)", () => {
  const table: Array<[string, string, DocumentState | null]> = [
    ["DOK", "received", "ACEPTADO"],
    ["TMD", "received", "ACEPTADO"],
    ["TMC", "received", "ACEPTADO"],
    ["MMD", "received", "ACEPTADO"],
    ["MMC", "received", "ACEPTADO"],
    ["AND", "received", "ACEPTADO"],
    ["ANC", "received", "ACEPTADO"],
    ["FAU", "not_received", null],
    ["FNA", "refused", "RECHAZADO"],
    ["FAN", "refused", "RECHAZADO"],
    ["DNK", "mismatch", null],
    ["EMP", "error", null],
    ["001", "error", null],
    ["002", "error", null],
    ["003", "error", null],
    ["-1", "error", null],
    ["-4", "error", null],
    ["ZZZ", "unknown", null],
    [" dok ", "received", "ACEPTADO"],
  ];
  for (const [estado, kind, state] of table) {
    test(`${estado} → ${kind}`, () => {
      const v = stateFromDocumentStatus(estado);
      expect(v.kind as string).toBe(kind);
      expect(v.state as DocumentState | null).toBe(state);
    });
  }
  test("note flags", () => {
    expect(stateFromDocumentStatus("ANC")).toMatchObject({ cancelledByNote: true, modifiedByNote: true });
    expect(stateFromDocumentStatus("MMC")).toMatchObject({ cancelledByNote: false, modifiedByNote: true });
    expect(stateFromDocumentStatus("DOK")).toMatchObject({ cancelledByNote: false, modifiedByNote: false });
    expect(stateFromDocumentStatus("001")).toMatchObject({ reauthenticate: true, retry: true });
  });
});

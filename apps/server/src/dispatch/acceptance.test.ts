// The receiver's acceptance or claim (dispatch/acceptance.ts): the state the events give and the checks' schedule.
import { describe, expect, test } from "bun:test";
import { acceptanceState, CLAIM_WINDOW_MS, firstAcceptanceCheckMs, newEvents, nextAcceptanceCheck } from "./acceptance.js";

const HOUR = 3_600_000;
const received = new Date("2026-11-02T13:00:00.000Z");
const after = (ms: number) => new Date(received.getTime() + ms);

describe("acceptanceState", () => {
  test("a claim wins over anything; an acceptance or receipt of goods accepts", () => {
    expect(acceptanceState(["ACD", "RCD"], received, after(HOUR))).toBe("RECLAMADO");
    expect(acceptanceState(["RFP"], received, after(HOUR))).toBe("RECLAMADO");
    expect(acceptanceState(["RFT"], null, after(HOUR))).toBe("RECLAMADO");
    expect(acceptanceState(["ERM"], received, after(HOUR))).toBe("ACEPTADO");
    expect(acceptanceState(["ACD", "ERM"], received, after(HOUR))).toBe("ACEPTADO");
  });

  test("without events: no answer within the 8 days, tacit acceptance from the moment they end", () => {
    expect(acceptanceState([], received, after(CLAIM_WINDOW_MS - 1))).toBe("SIN_RESPUESTA");
    expect(acceptanceState([], received, after(CLAIM_WINDOW_MS))).toBe("ACEPTADO_TACITO");
    // credit notes referring to the factura (NCA, ENC) are neither acceptance nor claim
    expect(acceptanceState(["NCA", "ENC"], received, after(HOUR))).toBe("SIN_RESPUESTA");
    expect(acceptanceState([], null, after(30 * 24 * HOUR))).toBe("SIN_RESPUESTA");
  });
});

describe("nextAcceptanceCheck", () => {
  test("1 h, 1, 3 and 6 days after reception, then just after the window closes; none once settled", () => {
    const steps: Array<[number, number]> = [
      [0, HOUR],
      [HOUR, 24 * HOUR],
      [2 * 24 * HOUR, 3 * 24 * HOUR],
      [5 * 24 * HOUR, 6 * 24 * HOUR],
      [7 * 24 * HOUR, CLAIM_WINDOW_MS + HOUR],
    ];
    for (const [now, due] of steps) expect(nextAcceptanceCheck("SIN_RESPUESTA", received, after(now))).toEqual(after(due));
    for (const settled of ["ACEPTADO", "RECLAMADO", "ACEPTADO_TACITO"] as const) expect(nextAcceptanceCheck(settled, received, after(HOUR))).toBeNull();
  });
});

test("the first question: an hour after the SII accepts the factura, 30 s against the sandbox", () => {
  expect(firstAcceptanceCheckMs({ siiMode: "produccion" })).toBe(HOUR);
  expect(firstAcceptanceCheckMs({ siiMode: "certificacion" })).toBe(HOUR);
  expect(firstAcceptanceCheckMs({ siiMode: "sandbox" })).toBe(30_000);
});

test("newEvents: the events the previous answer did not have", () => {
  const acd = { codigo: "ACD", descripcion: "Acepta Contenido del Documento", rut_responsable: "60803000-K", fecha: "2026-11-02T14:00:00.000Z" };
  const erm = { ...acd, codigo: "ERM", descripcion: "Otorga Recibo de Mercaderías o Servicios" };
  expect(newEvents([acd], [acd, erm])).toEqual([erm]);
  expect(newEvents([], [acd])).toEqual([acd]);
  expect(newEvents([acd, erm], [acd, erm])).toEqual([]);
});

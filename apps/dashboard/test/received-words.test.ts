/**
 * The words of received documents without a browser: the deadline badge from `plazo_hasta`/`estado`, what each tipo
 * and state allows (API.md §12's table), every verification failure and decision refusal said in Spanish.
 */
import { describe, expect, test } from "bun:test";
import type { ReceivedDocument } from "@timbre/sdk";
import { ApiError } from "../src/lib/api.js";
import { describeError } from "../src/lib/messages.js";
import { allowedDecisions, deadlineBadge, deadlineSentence, inboxReason, isVerified, verificationFailures, VERIFICATION_WORDS } from "../src/lib/received-words.js";
import { IMAP_ERRORS } from "../src/pages/business-intercambio.js";

const NOW = new Date("2026-11-25T15:00:00.000Z");
const OK = { firma: "ok", timbre: "ok", caf: "ok", receptor: "ok", emisor: "ok" };
type Doc = Pick<ReceivedDocument, "tipo" | "estado" | "plazo_hasta" | "verificacion" | "superseded_by" | "eventos">;
const doc = (over: Partial<Doc> = {}): Doc => ({ tipo: 33, estado: "SIN_RESPUESTA", plazo_hasta: "2026-11-28T18:00:00.000Z", verificacion: OK, superseded_by: null, eventos: [], ...over });

describe("deadline badge", () => {
  test("days left, the last day, past, and the states that end the deadline", () => {
    expect(deadlineBadge(doc(), NOW)).toEqual(["Vence en 3 días", "info"]);
    expect(deadlineBadge(doc({ plazo_hasta: "2026-11-27T16:00:00.000Z" }), NOW)).toEqual(["Vence en 2 días", "warn"]);
    expect(deadlineBadge(doc({ plazo_hasta: "2026-11-26T16:00:00.000Z" }), NOW)).toEqual(["Vence en 1 día", "warn"]);
    expect(deadlineBadge(doc({ plazo_hasta: "2026-11-25T20:00:00.000Z" }), NOW)).toEqual(["Vence hoy", "bad"]);
    expect(deadlineBadge(doc({ plazo_hasta: "2026-11-25T14:59:00.000Z" }), NOW)).toEqual(["Vencido", "bad"]);
    expect(deadlineBadge(doc({ estado: "ACEPTADO_TACITO" }), NOW)).toEqual(["Aceptado tácitamente", "ok"]);
    expect(deadlineBadge(doc({ estado: "ACEPTADO" }), NOW)).toEqual(["Aceptado", "ok"]);
    expect(deadlineBadge(doc({ estado: "RECLAMADO" }), NOW)).toEqual(["Reclamado", "bad"]);
    expect(deadlineBadge(doc({ tipo: 52, estado: "NO_APLICA", plazo_hasta: null }), NOW)).toEqual(["Sin plazo", "neutral"]);
    expect(deadlineBadge(doc({ plazo_hasta: null }), NOW)).toEqual(["El SII aún no lo recibe", "neutral"]);
  });

  test("the sentence says the deadline in Chile's time and what silence means", () => {
    expect(deadlineSentence(doc(), NOW)).toContain("si no lo reclamas, queda aceptado tácitamente");
    expect(deadlineSentence(doc(), NOW)).toContain("28-11-2026");
    expect(deadlineSentence(doc({ plazo_hasta: "2026-11-20T10:00:00.000Z" }), NOW)).toStartWith("El plazo venció");
    expect(deadlineSentence(doc({ tipo: 61, estado: "NO_APLICA", plazo_hasta: null }), NOW)).toContain("no tiene plazo legal");
  });
});

describe("what each tipo and state allows (API.md §12)", () => {
  test("a factura without an answer: both", () => {
    expect(allowedDecisions(doc())).toEqual({ accept: null, claim: null });
    expect(allowedDecisions(doc({ tipo: 52, estado: "NO_APLICA", plazo_hasta: null }))).toEqual({ accept: null, claim: null });
  });

  test("exports 110–112: neither, saying why", () => {
    for (const tipo of [110, 111, 112]) {
      const d = allowedDecisions(doc({ tipo, estado: "NO_APLICA", plazo_hasta: null }));
      expect(d.accept).toContain("exportación");
      expect(d.claim).toContain("exportación");
    }
  });

  test("already decided, tacitly accepted, superseded", () => {
    expect(allowedDecisions(doc({ estado: "RECLAMADO" })).accept).toContain("Ya fue reclamado");
    expect(allowedDecisions(doc({ estado: "ACEPTADO_TACITO" })).claim).toContain("aceptado tácitamente");
    const accepted = allowedDecisions(doc({ estado: "ACEPTADO", eventos: [{ codigo: "ACD", descripcion: "", rut_responsable: null, fecha: null, origen: "timbre" }] }));
    expect(accepted.accept).toBeNull(); // the receipt of goods (ERM) may follow an ACD
    expect(accepted.claim).toContain("ya no se puede reclamar");
    const full = allowedDecisions(doc({ estado: "ACEPTADO", eventos: [{ codigo: "ERM", descripcion: "", rut_responsable: null, fecha: null, origen: "sii" }] }));
    expect(full.accept).toContain("recibo de mercaderías");
    expect(allowedDecisions(doc({ superseded_by: "rcv_2" })).accept).toContain("copia verificada");
  });

  test("an unverified document can only be claimed", () => {
    const d = doc({ verificacion: { ...OK, timbre: "invalido" } });
    expect(isVerified(d)).toBe(false);
    expect(allowedDecisions(d)).toEqual({ accept: "No pasó la verificación: un documento así solo se puede reclamar.", claim: null });
  });
});

describe("Spanish words", () => {
  test("every verification failure core names", () => {
    const failures = { firma: ["invalida"], timbre: ["invalido"], caf: ["autoridad_desconocida", "firma_invalida", "ilegible"], receptor: ["otro_receptor"], emisor: ["distinto_de_caratula"] };
    for (const [check, values] of Object.entries(failures)) {
      for (const v of values) {
        expect(VERIFICATION_WORDS[`${check}:${v}`], `${check}:${v}`).toBeString();
        const said = verificationFailures({ ...OK, [check]: v } as ReceivedDocument["verificacion"]);
        expect(said).toEqual([VERIFICATION_WORDS[`${check}:${v}`] ?? ""]);
      }
    }
    expect(verificationFailures(OK)).toEqual([]);
  });

  test("every refusal of a decision, of an upload and of a delivery", () => {
    const said = (status: number, code: string, details: Record<string, unknown>, message = "x") => describeError(new ApiError(status, code, message, details));
    expect(said(409, "CONFLICT", { reason: "already_decided" })).toContain("ya tiene una decisión");
    expect(said(409, "CONFLICT", { reason: "deadline_passed" })).toContain("8 días");
    expect(said(409, "CONFLICT", { reason: "not_at_sii" })).toContain("El SII aún no tiene");
    expect(said(409, "CONFLICT", { reason: "not_answerable" })).toContain("exportación");
    expect(said(409, "CONFLICT", { reason: "not_verified" })).toContain("solo se puede reclamar");
    expect(said(409, "CONFLICT", { reason: "superseded" })).toContain("copia verificada");
    expect(said(409, "CONFLICT", { reason: "not_accepted" })).toContain("cuando lo acepte");
    expect(said(422, "SII_REFUSED", { codigo: 4 }, "the SII's registry refused ACD: Documento no recibido por el receptor")).toBe(
      "El SII rechazó el registro (código 4): Documento no recibido por el receptor. No se registró nada.",
    );
    expect(said(429, "RATE_LIMITED", { reason: "document_daily_sends" })).toContain("5 veces");
    expect(said(429, "RATE_LIMITED", { reason: "mail_daily_limit" })).toContain("límite diario de correos");
    expect(said(503, "UNAVAILABLE", { reason: "tax_authority" })).toBe("El SII no respondió: no se registró nada. Inténtalo de nuevo en unos minutos.");
    for (const reason of ["format", "schema", "signature", "not_addressed"]) expect(said(422, "ENVELOPE_INVALID", { reason })).not.toContain("Sobre no válido");
    for (const reason of ["format", "schema", "signature", "not_addressed", "no_xml", "too_many_attachments", "too_large", "unsupported", "not_processed", "internal"]) {
      expect(inboxReason(reason)).not.toContain("No se pudo importar (");
    }
    for (const error of ["auth", "tls", "unreachable", "mailbox"]) expect(IMAP_ERRORS[error]).toBeString();
  });
});

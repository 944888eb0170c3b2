import { describe, expect, test } from "bun:test";
import {
  codeLevel, describeSiiCode, DOCUMENT_CODES, isAcceptanceEvent, isClaimEvent, normalizeDocumentCode, RECEIVER_EVENT_CODES,
  RECEIVER_REGISTRY_CODES, receiverRegistryDescription, uploadStatusInfo,
} from "./index.js";

describe("SII codes", () => {
  test("every code the brief names is described", () => {
    for (const code of ["CAF-3-517", "DTE-3-100", "DTE-3-101", "DTE-3-601", "REF-3-750", "REF-3-415", "REF-3-758",
      "HED-3-305", "ENV-3-6", "ENV-3-0", "HED-1-863", "HED-3-861", "REF-2-780", "CRT-3-19"]) {
      const info = describeSiiCode(code);
      expect(info.codigo).toBe(code);
      expect(info.descripcion).not.toBe("Código del SII no catalogado");
      expect(info.ayuda.length).toBeGreaterThan(20);
      expect(DOCUMENT_CODES[code]).toBeDefined();
    }
  });
  test("every document code names its source; CRT-3-19 keeps the SII's meaning; SBX codes are the sandbox's own", () => {
    for (const entry of Object.values(DOCUMENT_CODES)) expect(entry.fuente?.length ?? 0).toBeGreaterThan(10);
    expect(DOCUMENT_CODES["CRT-3-19"]).toMatchObject({ descripcion: "Fecha/Numero Resolucion Invalido", source: "observado" });
    const own = Object.values(DOCUMENT_CODES).filter((e) => e.codigo.startsWith("SBX-"));
    expect(own.map((e) => e.codigo).sort()).toEqual(["SBX-2-5", "SBX-2-6", "SBX-3-1", "SBX-3-2", "SBX-3-3", "SBX-3-4"]);
    expect(own.every((e) => e.source === "sandbox" && e.fuente?.includes("propio del sandbox"))).toBe(true);
    expect(codeLevel("SBX-3-1")).toBe(3);
  });
  test("upload STATUS classification", () => {
    expect(uploadStatusInfo("0")?.kind).toBe("ok");
    for (const s of ["1", "6", "7", "8"]) expect(uploadStatusInfo(s)?.kind).toBe("refused");
    for (const s of ["2", "3", "9", "99"]) expect(uploadStatusInfo(s)?.kind).toBe("transient");
    expect(uploadStatusInfo("5")?.kind).toBe("reauth");
    expect(describeSiiCode(7, "upload").descripcion).toBe("Esquema inválido");
  });
  test("states and line-qualified codes", () => {
    expect(describeSiiCode("EPR").descripcion).toBe("Envío procesado");
    expect(describeSiiCode("DOK", "estdte").descripcion).toContain("Documento recibido");
    expect(normalizeDocumentCode("REF L[5] -3-758")).toBe("REF-3-758");
    expect(describeSiiCode("REF L[5] -3-758").descripcion).toContain("CodRef");
    expect(codeLevel("HED-1-863")).toBe(1);
    expect(codeLevel("CAF-3-517")).toBe(3);
    expect(codeLevel("EPR")).toBeNull();
  });
  test("unknown code gets a generic hint", () => {
    expect(describeSiiCode("XYZ-9-999").descripcion).toBe("Código del SII no catalogado");
  });
  test("registry of acceptances and claims: codResp 0–25 and -1, event codes, claims and acceptances", () => {
    for (let code = -1; code <= 25; code++) expect(RECEIVER_REGISTRY_CODES[String(code)]?.descripcion.length).toBeGreaterThan(10);
    expect(Object.keys(RECEIVER_REGISTRY_CODES)).toHaveLength(27);
    expect(describeSiiCode(18, "receiver").descripcion).toBe("Documento no ha sido recibido.");
    expect(receiverRegistryDescription(12, "RFP")).toBe("No se puede dar por aceptado DTE previamente rechazado por RFP");
    expect(Object.keys(RECEIVER_EVENT_CODES)).toEqual(["ACD", "RCD", "ERM", "RFP", "RFT", "NCA", "ENC"]);
    expect(["RCD", "RFP", "rft"].every(isClaimEvent)).toBe(true);
    expect(["ACD", "ERM", "NCA", "ENC"].some(isClaimEvent)).toBe(false);
    expect(["ACD", "erm"].every(isAcceptanceEvent)).toBe(true);
    expect(["RCD", "NCA", "ENC"].some(isAcceptanceEvent)).toBe(false);
  });
});

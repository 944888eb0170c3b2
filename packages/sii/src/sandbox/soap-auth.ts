import { respuesta } from "./answers.js";
import type { TokenScope } from "./credentials.js";
import type { SandboxState } from "./state.js";
import { verifySignedSeed } from "./verify-signed-seed.js";

/**
 * CrSeed.getSeed / boleta semilla: a fresh 12-digit seed (`SII:RESPUESTA`, ESTADO 00).
 *
 * @example
 * seedAnswer(state); // "<?xml …><SII:RESPUESTA …><SII:RESP_BODY><SEMILLA>…"
 */
export function seedAnswer(state: SandboxState): string {
  return respuesta([["ESTADO", "00"]], [["SEMILLA", state.credentials.newSeed()]]);
}

/**
 * GetTokenFromSeed.getToken / boleta token: verifies the signed seed, consumes the seed (single use, TTL) and
 * issues a token of `scope`; otherwise the SII's error ESTADO and GLOSA.
 *
 * @example
 * tokenAnswer(state, signedSeedXml, "dte");
 */
export function tokenAnswer(state: SandboxState, signedSeedXml: string, scope: TokenScope): string {
  const check = verifySignedSeed(signedSeedXml, state.settings.now());
  if (check.estado !== "00" || !("seed" in check)) {
    return respuesta([["ESTADO", check.estado], ["GLOSA", "glosa" in check ? check.glosa : "Error"]], [], false);
  }
  const seed = state.credentials.consumeSeed(check.seed);
  if (seed !== "ok") {
    const glosa = seed === "expired" ? "Error : TIME-OUT DEL SEED" : "Error : NO EXISTE SEED";
    return respuesta([["ESTADO", "08"], ["GLOSA", glosa]], [], false);
  }
  const issued = state.credentials.newToken(scope, check.holderRut);
  return respuesta([["ESTADO", "00"], ["GLOSA", "Token Creado"]], [["TOKEN", issued.token]], false);
}

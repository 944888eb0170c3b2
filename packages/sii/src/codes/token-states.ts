import type { SiiCodeEntry } from "./types.js";

/** GetTokenFromSeed / CrSeed `ESTADO` values (authentication manual v1.9, chapter 5–6). */
export const TOKEN_STATES: Readonly<Record<string, SiiCodeEntry>> = Object.fromEntries(
  (
    [
      ["00", "Token creado", "Autenticación correcta."],
      ["01", "Error: XML inválido (IOException)", "Revise que la semilla firmada sea un XML bien formado."],
      ["02", "Error: XML inválido (SAXException)", "Revise que la semilla firmada sea un XML bien formado."],
      ["03", "Error: XML inválido (ParserConfigurationException)", "Reintente; si persiste, revise el XML firmado."],
      ["04", "Error: XML inválido, elemento Signature no existe", "Firme la semilla (firma enveloped, URI vacía)."],
      ["05", "Error: XML inválido, firma inválida", "La firma de la semilla no es válida: revise clave y certificado."],
      ["06", "Error: XML inválido, elemento Semilla no existe", "El XML firmado debe ser getToken/item/Semilla."],
      ["07", "Error (MessageException)", "Error interno del SII: reintente más tarde."],
      ["08", "Error: retorno (semilla vencida o inexistente)", "Pida una semilla nueva: duran 2 minutos y son de un solo uso."],
      ["09", "Error (MessageException)", "Error interno del SII: reintente más tarde."],
      ["10", "Error: retorno datos (certificado no aceptado)", "Use un certificado emitido por una entidad acreditada."],
      ["11", "Error: XML inválido, elemento Certificate no existe", "Incluya X509Certificate en KeyInfo."],
      ["12", "Error (MessageException)", "Error interno del SII: reintente más tarde."],
      ["21", "Error: la llave no corresponde al certificado", "Firme con la clave privada del mismo certificado."],
      ["-1", "Error: no genera semilla", "Reintente más tarde."],
      ["-2", "Error: base de datos", "Reintente más tarde."],
      ["-3", "Error en autenticación", "El certificado no está registrado para autenticarse en el SII."],
      ["-07", "RUT no registrado para autenticarse con certificado", "Registre el certificado en el SII."],
    ] as const
  ).map(([codigo, descripcion, ayuda]) => [codigo, { codigo, descripcion, ayuda, source: "sii" as const }]),
);

import type { SiiCodeEntry } from "./types.js";

/** GetTokenFromSeed / CrSeed `ESTADO` values (authentication manual v1.9, chapter 5–6). */
export const TOKEN_STATES: Readonly<Record<string, SiiCodeEntry>> = Object.fromEntries(
  (
    [
      ["00", "Token creado", "Autenticación correcta."],
      ["01", "Error: XML inválido (IOException)", "Revise que la semilla firmada sea un XML bien formado."],
      ["02", "Error: XML inválido (SAXException)", "Revise que la semilla firmada sea un XML bien formado."],
      ["03", "Error: XML inválido (ParserConfigurationException)", "Error del SII al leer la semilla firmada: reintente; si persiste, revise el XML firmado."],
      ["04", "Error: XML inválido, elemento Signature no existe", "Firme la semilla (firma enveloped, URI vacía)."],
      ["05", "Error: XML inválido, firma inválida", "La firma de la semilla no es válida: revise clave y certificado."],
      ["06", "Error: XML inválido, elemento Semilla no existe", "El XML firmado debe ser getToken/item/Semilla."],
      ["07", "Error (MessageException)", "Error interno del SII: reintente más tarde."],
      ["08", "Error retorno: semilla vencida o inexistente, parámetros incorrectos o token no generado", "Pida una semilla nueva (duran 2 minutos y son de un solo uso) y reintente."],
      ["09", "Error (MessageException)", "Error interno del SII: reintente más tarde."],
      ["10", "Error retorno: error retorno datos / no se pudo crear o actualizar el token", "Error del SII al crear el token: reintente más tarde."],
      ["11", "Error: XML inválido, elemento Certificate no existe", "Incluya X509Certificate en KeyInfo."],
      ["12", "Error (MessageException)", "Error interno del SII: reintente más tarde."],
      ["21", "Error: la llave no corresponde al certificado", "Firme con la clave privada del mismo certificado."],
      ["-1", "Error: no genera semilla", "Reintente más tarde."],
      ["-2", "Error: base de datos", "Reintente más tarde."],
      ["-3", "Error en autenticación", "El SII no autenticó la semilla firmada: revise que el certificado esté vigente y corresponda a la clave."],
      ["-07", "Error en la validación del RUT del certificado", "Verifique que el titular esté registrado en el SII con la opción de autenticación mediante certificado digital."],
    ] as const
  ).map(([codigo, descripcion, ayuda]) => [codigo, { codigo, descripcion, ayuda, source: "sii" as const }]),
);

/** The SII's SOAP services (Axis `.jws`), their operation and ordered parameters (from the WSDLs). */
export const SOAP_SERVICES = {
  CrSeed: { operation: "getSeed", params: [] },
  GetTokenFromSeed: { operation: "getToken", params: ["pszXml"] },
  QueryEstUp: { operation: "getEstUp", params: ["RutCompania", "DvCompania", "TrackId", "Token"] },
  QueryEstDte: {
    operation: "getEstDte",
    params: [
      "RutConsultante", "DvConsultante", "RutCompania", "DvCompania", "RutReceptor", "DvReceptor",
      "TipoDte", "FolioDte", "FechaEmisionDte", "MontoDte", "Token",
    ],
  },
} as const;

/** Name of one SOAP service. */
export type SoapService = keyof typeof SOAP_SERVICES;

/** Paths served by the SII (and the sandbox). */
export const SII_PATHS = {
  soap: (service: SoapService) => `/DTEWS/${service}.jws`,
  dteUpload: "/cgi_dte/UPL/DTEUpload",
  boletaSeed: "/recursos/v1/boleta.electronica.semilla",
  boletaToken: "/recursos/v1/boleta.electronica.token",
  boletaUpload: "/recursos/v1/boleta.electronica.envio",
  boletaStatus: (rut: string, dv: string, trackId: string) => `/recursos/v1/boleta.electronica.envio/${rut}-${dv}-${trackId}`,
  boletaDocumentStatus: (rut: string, dv: string, tipo: number, folio: number) => `/recursos/v1/boleta.electronica/${rut}-${dv}-${tipo}-${folio}/estado`,
  /** The registry of acceptances and claims (producción's path; certificación's is `/WSREGISTRORECLAMODTECERT/…`). */
  receiverRegistry: "/WSREGISTRORECLAMODTE/registroreclamodteservice",
} as const;

/** The SII environments and a custom base URL (sandbox). */
export type SiiEnvironment = "certificacion" | "produccion" | { baseUrl: string };

/** Base URLs per role. */
export interface SiiHosts {
  /** SOAP services and DTEUpload (maullin / palena). */
  soap: string;
  /** Boleta REST seed, token and status (apicert / api). */
  boletaApi: string;
  /** Boleta REST upload (pangal / rahue). */
  boletaUpload: string;
  /** Host used in the SOAP operation namespace (`https://<host>/DTEWS/<Service>.jws`). */
  namespaceHost: string;
  /**
   * Full URL of the "Web Service de Consulta y Registro de Aceptación/Reclamo a DTE recibido" (manual v1.2):
   * ws2 in certificación, ws1 in producción.
   */
  receiverRegistry: string;
}

/**
 * Resolves the hosts of an environment; a `{ baseUrl }` serves every path (the sandbox).
 *
 * @example
 * resolveHosts("certificacion").soap; // "https://maullin.sii.cl"
 */
export function resolveHosts(environment: SiiEnvironment): SiiHosts {
  if (environment === "certificacion") {
    return {
      soap: "https://maullin.sii.cl", boletaApi: "https://apicert.sii.cl", boletaUpload: "https://pangal.sii.cl", namespaceHost: "maullin.sii.cl",
      receiverRegistry: "https://ws2.sii.cl/WSREGISTRORECLAMODTECERT/registroreclamodteservice",
    };
  }
  if (environment === "produccion") {
    return {
      soap: "https://palena.sii.cl", boletaApi: "https://api.sii.cl", boletaUpload: "https://rahue.sii.cl", namespaceHost: "palena.sii.cl",
      receiverRegistry: `https://ws1.sii.cl${SII_PATHS.receiverRegistry}`,
    };
  }
  const base = environment.baseUrl.replace(/\/+$/, "");
  return { soap: base, boletaApi: base, boletaUpload: base, namespaceHost: "maullin.sii.cl", receiverRegistry: `${base}${SII_PATHS.receiverRegistry}` };
}

/** The browser-like User-Agent of the SII upload manual (without it DTEUpload answers HTML). */
export const SII_USER_AGENT = "Mozilla/4.0 (compatible; PROG 1.0; Windows NT 5.0; YComp 5.0.2.4)";

/**
 * A raw loopback HTTP server (node:net) that records every request exactly as received on the socket — request
 * line, headers in order, body bytes — and answers like the SII with canned bodies.
 */
import { createServer, type Server } from "node:net";
import { buildReceiverRegistryResponse, isReceiverRegistryOperation } from "../../src/protocol/receiver-registry.js";
import { buildSoapResponse, parseSoapRequest } from "../../src/protocol/soap.js";

/** One captured request. */
export interface CapturedRequest {
  method: string;
  path: string;
  /** Header names lower-cased, in the order sent. */
  headers: Array<[string, string]>;
  body: Uint8Array;
}

const respuesta = (hdr: string, body = "") =>
  `<?xml version="1.0" encoding="UTF-8"?><SII:RESPUESTA xmlns:SII="http://www.sii.cl/XMLSchema">${body}<SII:RESP_HDR>${hdr}</SII:RESP_HDR></SII:RESPUESTA>`;

/** Canned answers; `uploadStatus` drives RECEPCIONDTE. */
export interface CaptureOptions {
  uploadStatus?: string;
}

function answer(req: CapturedRequest, options: CaptureOptions): { status: number; type: string; body: string } {
  const soap = (service: Parameters<typeof buildSoapResponse>[0], inner: string) => ({ status: 200, type: "text/xml; charset=utf-8", body: buildSoapResponse(service, "maullin.sii.cl", inner) });
  switch (req.path) {
    case "/DTEWS/CrSeed.jws": return soap("CrSeed", respuesta("<ESTADO>00</ESTADO>", "<SII:RESP_BODY><SEMILLA>123456789012</SEMILLA></SII:RESP_BODY>"));
    case "/DTEWS/GetTokenFromSeed.jws": return soap("GetTokenFromSeed", respuesta("<ESTADO>00</ESTADO><GLOSA>Token Creado</GLOSA>", "<SII:RESP_BODY><TOKEN>CAPTURETOKEN1</TOKEN></SII:RESP_BODY>"));
    case "/DTEWS/QueryEstUp.jws": return soap("QueryEstUp", respuesta("<TRACKID>0000000042</TRACKID><ESTADO>EPR</ESTADO>", "<SII:RESP_BODY><TIPO_DOCTO>33</TIPO_DOCTO><INFORMADOS>1</INFORMADOS><ACEPTADOS>1</ACEPTADOS><RECHAZADOS>0</RECHAZADOS><REPAROS>0</REPAROS></SII:RESP_BODY>"));
    case "/DTEWS/QueryEstDte.jws": return soap("QueryEstDte", respuesta("<ESTADO>DOK</ESTADO><GLOSA_ESTADO>ok</GLOSA_ESTADO><ERR_CODE>0</ERR_CODE>"));
    case "/cgi_dte/UPL/DTEUpload": {
      const status = options.uploadStatus ?? "0";
      return { status: 200, type: "text/xml", body: `<?xml version="1.0"?><RECEPCIONDTE><STATUS>${status}</STATUS>${status === "0" ? "<TRACKID>0000000042</TRACKID>" : ""}</RECEPCIONDTE>` };
    }
    case "/recursos/v1/boleta.electronica.semilla": return { status: 200, type: "application/xml", body: respuesta("<ESTADO>00</ESTADO>", "<SII:RESP_BODY><SEMILLA>123456789012</SEMILLA></SII:RESP_BODY>") };
    case "/recursos/v1/boleta.electronica.token": return { status: 200, type: "application/xml", body: respuesta("<ESTADO>00</ESTADO>", "<SII:RESP_BODY><TOKEN>BOLETATOKEN01</TOKEN></SII:RESP_BODY>") };
    case "/recursos/v1/boleta.electronica.envio": return { status: 200, type: "application/json", body: JSON.stringify({ trackid: 123456789012345, estado: "REC" }) };
    case "/WSREGISTRORECLAMODTE/registroreclamodteservice": {
      const operation = parseSoapRequest(new TextDecoder().decode(req.body))?.operation ?? "";
      if (!isReceiverRegistryOperation(operation)) return { status: 500, type: "text/xml", body: "<Fault/>" };
      const inner = operation === "consultarFechaRecepcionSii" ? "20-11-2026 10:11:12" : "<codResp>16</codResp><descResp>Sin eventos</descResp>";
      return { status: 200, type: "text/xml; charset=utf-8", body: buildReceiverRegistryResponse(operation, inner) };
    }
    default: return { status: 404, type: "text/plain", body: "not found" };
  }
}

function indexOfCrlfCrlf(buf: Buffer): number {
  return buf.indexOf("\r\n\r\n");
}

/** Starts the capture server on 127.0.0.1 (ephemeral port). */
export async function startCapture(options: CaptureOptions = {}): Promise<{ baseUrl: string; requests: CapturedRequest[]; options: CaptureOptions; stop(): void }> {
  const requests: CapturedRequest[] = [];
  const server: Server = createServer((socket) => {
    let buf = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const end = indexOfCrlfCrlf(buf);
        if (end < 0) return;
        const head = buf.subarray(0, end).toString("latin1").split("\r\n");
        const [method = "", path = ""] = (head[0] ?? "").split(" ");
        const headers = head.slice(1).map((line) => {
          const i = line.indexOf(":");
          return [line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim()] as [string, string];
        });
        const length = Number(headers.find(([k]) => k === "content-length")?.[1] ?? "0");
        if (buf.length < end + 4 + length) return; // (a chunked body would never complete here: the test checks for it)
        const body = new Uint8Array(buf.subarray(end + 4, end + 4 + length));
        buf = buf.subarray(end + 4 + length);
        const req = { method, path, headers, body };
        requests.push(req);
        const a = answer(req, options);
        const bytes = Buffer.from(a.body, "utf8");
        socket.write(`HTTP/1.1 ${a.status} X\r\nContent-Type: ${a.type}\r\nContent-Length: ${bytes.length}\r\n\r\n`);
        socket.write(bytes);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return { baseUrl: `http://127.0.0.1:${port}`, requests, options, stop: () => server.close() };
}

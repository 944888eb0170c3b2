import { readFileSync } from "node:fs";
import { join } from "node:path";
import { wsdlDir } from "@timbre/sii-data";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SiiClient, SiiRefusedError, SiiTransientError } from "../src/client/index.js";
import { latin1Decode, latin1Encode } from "../src/protocol/bytes.js";
import { parseMultipart } from "../src/protocol/parse-multipart.js";
import { parseSoapRequest } from "../src/protocol/soap.js";
import { resolveHosts } from "../src/protocol/endpoints.js";
import { findElements } from "../src/protocol/xml-text.js";
import { startCapture, type CapturedRequest } from "./support/capture-server.js";
import { testIdentity } from "./support/world.js";

/** targetNamespace, operation and the ordered part names of `<operation>Request`, read from the WSDL file. */
function wsdl(service: string, operation: string) {
  const text = readFileSync(join(wsdlDir(), `${service}.wsdl`), "utf8");
  const namespace = /targetNamespace="([^"]+)"/.exec(text)?.[1];
  const message = new RegExp(`<wsdl:message name="${operation}Request">([\\s\\S]*?)</wsdl:message>`).exec(text)?.[1] ?? "";
  const parts = [...message.matchAll(/<wsdl:part name="([^"]+)"/g)].map((m) => m[1]);
  return { namespace, parts };
}

const header = (req: CapturedRequest | undefined, name: string) => req?.headers.find(([k]) => k === name)?.[1];

let capture: Awaited<ReturnType<typeof startCapture>>;
let client: SiiClient;
const ENVELOPE = latin1Encode('<?xml version="1.0" encoding="ISO-8859-1"?>\n<EnvioDTE>Cañería «ñandú» \r\n--boundary-lookalike</EnvioDTE>');

beforeAll(async () => {
  capture = await startCapture();
  client = new SiiClient({ environment: { baseUrl: capture.baseUrl }, identity: { ...(await testIdentity()), holderRut: "07880442-4" }, signSeed: (seed) => `<getToken><item><Semilla>${seed}</Semilla></item></getToken>` });
  await client.uploadEnvelope({ kind: "EnvioDTE", xml: ENVELOPE, rutEmisor: "76192083-9" });
  await client.getUploadStatus({ trackId: "0000000042", rutEmisor: "76192083-9", kind: "EnvioDTE" });
  await client.getDocumentStatus({ rutEmisor: "76192083-9", rutReceptor: "60803000-K", tipo: 33, folio: 1, fecha: "2026-01-15", monto: 65061 });
  await client.uploadEnvelope({ kind: "EnvioBOLETA", xml: ENVELOPE, rutEmisor: "76192083-9" });
});
afterAll(() => capture.stop());

const find = (path: string) => capture.requests.find((r) => r.path === path);

describe("requests on the wire match the WSDLs and BRIEF §7", () => {
  for (const [service, operation, path] of [
    ["CrSeed", "getSeed", "/DTEWS/CrSeed.jws"],
    ["GetTokenFromSeed", "getToken", "/DTEWS/GetTokenFromSeed.jws"],
    ["QueryEstUp", "getEstUp", "/DTEWS/QueryEstUp.jws"],
    ["QueryEstDte", "getEstDte", "/DTEWS/QueryEstDte.jws"],
  ] as const) {
    test(`${service}.${operation}: SOAP 1.1 envelope, operation namespace and parameters in WSDL order`, () => {
      const req = find(path);
      expect(req?.method).toBe("POST");
      expect(header(req, "soapaction")).toBe('""');
      expect(header(req, "content-type")).toStartWith("text/xml");
      expect(header(req, "user-agent")).toBe("Mozilla/4.0 (compatible; PROG 1.0; Windows NT 5.0; YComp 5.0.2.4)");
      const text = new TextDecoder().decode(req?.body);
      expect(text).toContain('xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"');
      const spec = wsdl(service, operation);
      expect(text).toContain(`<m:${operation} xmlns:m="${spec.namespace}"`);
      const parsed = parseSoapRequest(text);
      expect(parsed?.operation).toBe(operation);
      expect([...(parsed?.params.keys() ?? [])]).toEqual(spec.parts as string[]);
      for (const part of spec.parts) expect(text).toContain(`<${part} xsi:type="xsd:string">`);
    });
  }

  test("parameter values: RUT split without leading zeros, DDMMAAAA date, token, escaped signed seed", () => {
    const estDte = parseSoapRequest(new TextDecoder().decode(find("/DTEWS/QueryEstDte.jws")?.body))?.params;
    expect(Object.fromEntries(estDte ?? [])).toEqual({
      RutConsultante: "7880442", DvConsultante: "4", RutCompania: "76192083", DvCompania: "9", RutReceptor: "60803000",
      DvReceptor: "K", TipoDte: "33", FolioDte: "1", FechaEmisionDte: "15012026", MontoDte: "65061", Token: "CAPTURETOKEN1",
    });
    const estUp = parseSoapRequest(new TextDecoder().decode(find("/DTEWS/QueryEstUp.jws")?.body))?.params;
    expect(estUp?.get("TrackId")).toBe("0000000042");
    const token = new TextDecoder().decode(find("/DTEWS/GetTokenFromSeed.jws")?.body);
    expect(token).toContain("&lt;getToken&gt;&lt;item&gt;&lt;Semilla&gt;123456789012&lt;/Semilla&gt;");
  });

  test("DTEUpload: multipart fields in the SII's order, exact ISO-8859-1 bytes, Content-Length, no chunking, UA, cookie", () => {
    const req = find("/cgi_dte/UPL/DTEUpload");
    expect(req?.method).toBe("POST");
    expect(header(req, "transfer-encoding")).toBeUndefined();
    expect(Number(header(req, "content-length"))).toBe(req?.body.length ?? -1);
    expect(header(req, "user-agent")).toBe("Mozilla/4.0 (compatible; PROG 1.0; Windows NT 5.0; YComp 5.0.2.4)");
    expect(header(req, "cookie")).toBe("TOKEN=CAPTURETOKEN1");
    const parts = parseMultipart(req?.body ?? new Uint8Array(), header(req, "content-type") ?? null) ?? [];
    expect(parts.map((p) => p.name)).toEqual(["rutSender", "dvSender", "rutCompany", "dvCompany", "archivo"]);
    expect(parts.slice(0, 4).map((p) => latin1Decode(p.bytes))).toEqual(["7880442", "4", "76192083", "9"]);
    expect(parts[4]?.filename).toBe("envio.xml");
    expect(parts[4]?.contentType).toBe("text/xml");
    expect(Buffer.from(parts[4]?.bytes ?? []).equals(Buffer.from(ENVELOPE))).toBe(true);
  });

  test("boleta REST: GET seed, POST token as application/xml, multipart upload with its own token and JSON accept", () => {
    const seed = find("/recursos/v1/boleta.electronica.semilla");
    expect(seed?.method).toBe("GET");
    const token = find("/recursos/v1/boleta.electronica.token");
    expect(header(token, "content-type")).toBe("application/xml");
    expect(new TextDecoder().decode(token?.body)).toStartWith("<getToken>");
    const up = find("/recursos/v1/boleta.electronica.envio");
    expect(header(up, "cookie")).toBe("TOKEN=BOLETATOKEN01");
    expect(header(up, "accept")).toBe("application/json");
    expect(header(up, "transfer-encoding")).toBeUndefined();
    expect(Number(header(up, "content-length"))).toBe(up?.body.length ?? -1);
    expect(header(up, "user-agent")).toStartWith("Mozilla/4.0");
    const parts = parseMultipart(up?.body ?? new Uint8Array(), header(up, "content-type") ?? null) ?? [];
    expect(parts.map((p) => p.name)).toEqual(["rutSender", "dvSender", "rutCompany", "dvCompany", "archivo"]);
  });

  test("the token never appears in error messages", async () => {
    capture.options.uploadStatus = "7";
    const error = await client.uploadEnvelope({ kind: "EnvioDTE", xml: ENVELOPE, rutEmisor: "76192083-9" }).catch((e: unknown) => e);
    capture.options.uploadStatus = "0";
    expect(error).toBeInstanceOf(SiiRefusedError);
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain("CAPTURETOKEN1");
  });
});

describe("upload STATUS classification", () => {
  for (const status of ["2", "3", "9", "99"]) {
    test(`STATUS ${status} → SiiTransientError(status)`, async () => {
      capture.options.uploadStatus = status;
      const error = await client.uploadEnvelope({ kind: "EnvioDTE", xml: ENVELOPE, rutEmisor: "76192083-9" }).catch((e: unknown) => e);
      capture.options.uploadStatus = "0";
      expect(error).toBeInstanceOf(SiiTransientError);
      expect(error).toMatchObject({ reason: "status", status });
    });
  }

  test("STATUS 5 → re-authenticates once, then SiiTransientError(token)", async () => {
    capture.options.uploadStatus = "5";
    const before = capture.requests.filter((r) => r.path === "/DTEWS/CrSeed.jws").length;
    const error = await client.uploadEnvelope({ kind: "EnvioDTE", xml: ENVELOPE, rutEmisor: "76192083-9" }).catch((e: unknown) => e);
    capture.options.uploadStatus = "0";
    expect(error).toMatchObject({ name: "SiiTransientError", reason: "token", status: "5" });
    expect(capture.requests.filter((r) => r.path === "/DTEWS/CrSeed.jws").length).toBe(before + 1);
  });
});

describe("environments", () => {
  test("hosts per environment", () => {
    expect(resolveHosts("certificacion")).toMatchObject({ soap: "https://maullin.sii.cl", boletaApi: "https://apicert.sii.cl", boletaUpload: "https://pangal.sii.cl" });
    expect(resolveHosts("produccion")).toMatchObject({ soap: "https://palena.sii.cl", boletaApi: "https://api.sii.cl", boletaUpload: "https://rahue.sii.cl", namespaceHost: "palena.sii.cl" });
    expect(resolveHosts({ baseUrl: "http://127.0.0.1:4040/" }).soap).toBe("http://127.0.0.1:4040");
  });

  test("produccion sends to palena with the palena namespace", async () => {
    const urls: string[] = [];
    const bodies: string[] = [];
    const prod = new SiiClient({
      environment: "produccion", identity: { ...(await testIdentity()), holderRut: "11111111-1" },
      fetch: (async (url: RequestInfo | URL, init?: RequestInit) => {
        urls.push(String(url));
        bodies.push(new TextDecoder().decode(init?.body as Uint8Array));
        return new Response("<x/>", { status: 200 });
      }) as typeof fetch,
    });
    await prod.getSeed().catch(() => undefined);
    expect(urls[0]).toBe("https://palena.sii.cl/DTEWS/CrSeed.jws");
    expect(findElements(bodies[0] ?? "", "getSeed")[0]?.attributes).toContain('xmlns:m="https://palena.sii.cl/DTEWS/CrSeed.jws"');
  });
});

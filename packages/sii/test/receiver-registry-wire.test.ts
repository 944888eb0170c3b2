import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SiiClient } from "../src/client/index.js";
import { resolveHosts } from "../src/protocol/endpoints.js";
import { RECEIVER_REGISTRY_NAMESPACE } from "../src/protocol/receiver-registry.js";
import { parseSoapRequest } from "../src/protocol/soap.js";
import { startCapture, type CapturedRequest } from "./support/capture-server.js";
import { testIdentity } from "./support/world.js";

const PATH = "/WSREGISTRORECLAMODTE/registroreclamodteservice";
const header = (req: CapturedRequest | undefined, name: string) => req?.headers.find(([k]) => k === name)?.[1];
const text = (req: CapturedRequest | undefined) => new TextDecoder().decode(req?.body);

let capture: Awaited<ReturnType<typeof startCapture>>;
const answers: unknown[] = [];

beforeAll(async () => {
  capture = await startCapture();
  const client = new SiiClient({
    environment: { baseUrl: capture.baseUrl }, identity: { ...(await testIdentity()), holderRut: "07880442-4" },
    signSeed: (seed) => `<getToken><item><Semilla>${seed}</Semilla></item></getToken>`,
  });
  const query = { rutEmisor: "76354771-K", tipo: 33, folio: 170 };
  answers.push(await client.registerReceiverAction({ ...query, accion: "ACD" }));
  answers.push(await client.listReceiverEvents(query));
  answers.push(await client.getAssignability(query));
  answers.push(await client.getSiiReceptionDate(query));
});
afterAll(() => capture.stop());

const registry = () => capture.requests.filter((r) => r.path === PATH);

describe("registry of acceptances and claims on the wire (the manual's parameters; WSDL not available)", () => {
  test("SOAP 1.1 document/literal POST with SOAPAction \"\", the DTE token as the TOKEN cookie, Content-Length", () => {
    expect(registry()).toHaveLength(4);
    for (const req of registry()) {
      expect(req.method).toBe("POST");
      expect(header(req, "content-type")).toBe("text/xml; charset=utf-8");
      expect(header(req, "soapaction")).toBe('""');
      expect(header(req, "cookie")).toBe("TOKEN=CAPTURETOKEN1");
      expect(header(req, "transfer-encoding")).toBeUndefined();
      expect(Number(header(req, "content-length"))).toBe(req.body.length);
    }
    // one authentication for the four calls
    expect(capture.requests.filter((r) => r.path === "/DTEWS/GetTokenFromSeed.jws")).toHaveLength(1);
  });

  test("ws:OPERATION in the service namespace with unqualified children in the manual's order", () => {
    const [ingresar, listar, cedible, fecha] = registry();
    expect(text(ingresar)).toContain(`xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ws="${RECEIVER_REGISTRY_NAMESPACE}"`);
    expect(text(ingresar)).toContain(
      "<soapenv:Body><ws:ingresarAceptacionReclamoDoc><rutEmisor>76354771</rutEmisor><dvEmisor>K</dvEmisor><tipoDoc>33</tipoDoc>" +
      "<folio>170</folio><accionDoc>ACD</accionDoc></ws:ingresarAceptacionReclamoDoc></soapenv:Body>",
    );
    for (const [req, operation] of [[listar, "listarEventosHistDoc"], [cedible, "consultarDocDteCedible"], [fecha, "consultarFechaRecepcionSii"]] as const) {
      const parsed = parseSoapRequest(text(req));
      expect(parsed?.operation).toBe(operation);
      expect([...(parsed?.params.entries() ?? [])]).toEqual([["rutEmisor", "76354771"], ["dvEmisor", "K"], ["tipoDoc", "33"], ["folio", "170"]]);
      expect(text(req)).toContain(`<ws:${operation}><rutEmisor>`);
    }
  });

  test("answers read from the return", () => {
    expect(answers).toEqual([
      { codigo: 16, descripcion: "Sin eventos" },
      { codigo: 16, descripcion: "Sin eventos", eventos: [] },
      { codigo: 16, descripcion: "Sin eventos" },
      "2026-11-20T10:11:12",
    ]);
  });

  test("endpoints: ws2 in certificación, ws1 in producción, the base URL's path for the sandbox", () => {
    expect(resolveHosts("certificacion").receiverRegistry).toBe("https://ws2.sii.cl/WSREGISTRORECLAMODTECERT/registroreclamodteservice");
    expect(resolveHosts("produccion").receiverRegistry).toBe("https://ws1.sii.cl/WSREGISTRORECLAMODTE/registroreclamodteservice");
    expect(resolveHosts({ baseUrl: "http://127.0.0.1:4040/" }).receiverRegistry).toBe(`http://127.0.0.1:4040${PATH}`);
  });
});

import { describe, expect, test } from "bun:test";
import { signSeed } from "@timbre/core/xml";
import { buildSoapRequest, parseSoapReturn } from "../protocol/soap.js";
import { elementText } from "../protocol/xml-text.js";
import { testIdentity } from "../../test/support/world.js";
import { createSandbox } from "./index.js";

async function soap(handler: (r: Request) => Promise<Response>, service: "CrSeed" | "GetTokenFromSeed" | "QueryEstUp", values: Record<string, string>) {
  const res = await handler(new Request(`http://sandbox/DTEWS/${service}.jws`, { method: "POST", body: buildSoapRequest(service, "maullin.sii.cl", values) }));
  const op = { CrSeed: "getSeed", GetTokenFromSeed: "getToken", QueryEstUp: "getEstUp" }[service];
  return parseSoapReturn(await res.text(), op) ?? "";
}

describe("sandbox protocol surface (handler called directly)", () => {
  test("seeds expire after 2 minutes (injected clock) → ESTADO 08; unknown seed → 08", async () => {
    let now = Date.parse("2026-01-15T10:00:00Z");
    const sandbox = createSandbox({ now: () => new Date(now) });
    const identity = await testIdentity();
    const seed = elementText(await soap(sandbox.handler, "CrSeed", {}), "SEMILLA") ?? "";
    expect(seed).toMatch(/^\d{12}$/);
    now += 121_000;
    const answer = await soap(sandbox.handler, "GetTokenFromSeed", { pszXml: signSeed(seed, identity) });
    expect(elementText(answer, "ESTADO")).toBe("08");
    expect(elementText(answer, "GLOSA")).toContain("TIME-OUT");
  });

  test("unsigned seed → 04, tampered signature → 05, not XML → 02, valid → 00 with the certificate holder", async () => {
    const sandbox = createSandbox();
    const identity = await testIdentity();
    const seed = elementText(await soap(sandbox.handler, "CrSeed", {}), "SEMILLA") ?? "";
    const token = async (pszXml: string) => elementText(await soap(sandbox.handler, "GetTokenFromSeed", { pszXml }), "ESTADO");
    expect(await token(`<getToken><item><Semilla>${seed}</Semilla></item></getToken>`)).toBe("04");
    expect(await token(signSeed(seed, identity).replace(`<Semilla>${seed}`, "<Semilla>000000000001"))).toBe("05");
    expect(await token("<getToken><item>")).toBe("02");
    expect(await token(signSeed(seed, identity))).toBe("00");
  });

  test("QueryEstUp with an unknown token → 002; unknown path → 404", async () => {
    const sandbox = createSandbox();
    const answer = await soap(sandbox.handler, "QueryEstUp", { RutCompania: "76192083", DvCompania: "9", TrackId: "1", Token: "nope" });
    expect(elementText(answer, "ESTADO")).toBe("002");
    expect((await sandbox.handler(new Request("http://sandbox/nope"))).status).toBe(404);
  });

  test("one boleta's REST status: 401 without a boleta token, 400 without monto and fechaEmision, FAU for an unknown folio", async () => {
    const sandbox = createSandbox();
    const identity = await testIdentity();
    const url = "http://sandbox/recursos/v1/boleta.electronica/76192083-9-39-1/estado";
    expect((await sandbox.handler(new Request(`${url}?monto=1000&fechaEmision=15-01-2026`))).status).toBe(401);
    const seedXml = await (await sandbox.handler(new Request("http://sandbox/recursos/v1/boleta.electronica.semilla"))).text();
    const seed = elementText(seedXml, "SEMILLA") ?? "";
    const tokenXml = await (await sandbox.handler(new Request("http://sandbox/recursos/v1/boleta.electronica.token", { method: "POST", body: signSeed(seed, identity) }))).text();
    const headers = { Cookie: `TOKEN=${elementText(tokenXml, "TOKEN")}` };
    expect((await sandbox.handler(new Request(`${url}?monto=1000`, { headers }))).status).toBe(400);
    expect((await sandbox.handler(new Request(`${url}?monto=1000&fechaEmision=2026-01-15`, { headers }))).status).toBe(400);
    const fau = await sandbox.handler(new Request(`${url}?rut_receptor=66666666&dv_receptor=6&monto=1000&fechaEmision=15-01-2026`, { headers }));
    expect(fau.status).toBe(200);
    expect(await fau.json()).toEqual({ codigo: "FAU", descripcion: "Documento no recibido por el SII" });
  });

  test("DTEUpload without a token → HTML page with HTTP 200", async () => {
    const sandbox = createSandbox();
    const res = await sandbox.handler(new Request("http://sandbox/cgi_dte/UPL/DTEUpload", { method: "POST", headers: { "User-Agent": "Mozilla/4.0" }, body: "x" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
  });

  test("issues CAFs with its own authority (IDK) for any RUT and tipo", () => {
    const sandbox = createSandbox({ idk: 4242 });
    const { caf, xml } = sandbox.issueCaf({ rut: "96670340-7", tipo: 61, desde: 1, hasta: 5 });
    expect(caf.idk).toBe(4242);
    expect(xml).toContain("<IDK>4242</IDK>");
    expect(sandbox.authorityKey.idk).toBe(4242);
  });
});

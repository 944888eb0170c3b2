import { describe, expect, test } from "bun:test";
import { latin1Encode } from "./bytes.js";
import { chileLocalTime, instantOfChileTime } from "./chile-time.js";
import { buildMultipart } from "./multipart.js";
import { parseMultipart } from "./parse-multipart.js";
import { buildSoapRequest, buildSoapResponse, parseSoapRequest, parseSoapReturn } from "./soap.js";
import { elementText, findElements, firstElement, looksLikeHtml } from "./xml-text.js";

describe("protocol helpers", () => {
  test("SOAP request round trip keeps parameter order and escapes values", () => {
    const text = buildSoapRequest("QueryEstUp", "maullin.sii.cl", { RutCompania: "76192083", DvCompania: "9", TrackId: "0260003916", Token: "A<&>" });
    expect(text).toContain('<m:getEstUp xmlns:m="https://maullin.sii.cl/DTEWS/QueryEstUp.jws">');
    const parsed = parseSoapRequest(text);
    expect(parsed?.operation).toBe("getEstUp");
    expect([...(parsed?.params.keys() ?? [])]).toEqual(["RutCompania", "DvCompania", "TrackId", "Token"]);
    expect(parsed?.params.get("Token")).toBe("A<&>");
    expect(() => buildSoapRequest("QueryEstUp", "x", {})).toThrow();
  });
  test("SOAP response wraps the inner document escaped", () => {
    const inner = `<?xml version="1.0" encoding="UTF-8"?><SII:RESPUESTA xmlns:SII="http://www.sii.cl/XMLSchema"><A>é &amp;</A></SII:RESPUESTA>`;
    const soap = buildSoapResponse("CrSeed", "maullin.sii.cl", inner);
    expect(soap).toContain("<getSeedReturn xsi:type=\"xsd:string\">&lt;?xml");
    expect(parseSoapReturn(soap, "getSeed")).toBe(inner);
    expect(parseSoapRequest(buildSoapRequest("CrSeed", "h", {}))?.operation).toBe("getSeed");
  });
  test("multipart keeps field order and exact file bytes", () => {
    const bytes = latin1Encode("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>ñ\r\n--x</a>");
    const { body, contentType } = buildMultipart([["rutSender", "1"], ["dvSender", "9"]], { name: "archivo", filename: "e.xml", contentType: "text/xml", bytes });
    const parts = parseMultipart(body, contentType);
    expect(parts?.map((p) => p.name)).toEqual(["rutSender", "dvSender", "archivo"]);
    expect(parts?.[2]?.filename).toBe("e.xml");
    expect(parts?.[2]?.contentType).toBe("text/xml");
    expect(Buffer.from(parts?.[2]?.bytes ?? []).equals(Buffer.from(bytes))).toBe(true);
  });
  test("element readers give the same answers however often and in whatever order a name is read", () => {
    const xml = `<a:R xmlns:a="urn:x"><E>1</E><a:E k="v">2</a:E><F/><E>&lt;3</E></a:R>`;
    for (let round = 0; round < 3; round++) {
      expect(findElements(xml, "E").map((e) => e.inner)).toEqual(["1", "2", "&lt;3"]);
      expect(findElements(xml, "E")[1]?.attributes).toBe(' k="v"');
      expect(elementText(xml, "E")).toBe("1");
      expect(findElements(xml, "F")).toEqual([{ attributes: "", inner: "" }]);
      expect(findElements(`<X><E>9</E></X>`, "E").map((e) => e.inner)).toEqual(["9"]);
      expect(elementText(xml, "Missing")).toBeNull();
      // The first one, read alone, is the first of all of them, however the shared pattern was used before.
      expect(firstElement(xml, "E")).toEqual({ attributes: "", inner: "1" });
      expect(firstElement(xml.replace("<E>1</E>", ""), "E")).toEqual({ attributes: ' k="v"', inner: "2" });
      expect(firstElement(xml, "F")).toEqual({ attributes: "", inner: "" });
      expect(firstElement(xml, "Missing")).toBeUndefined();
    }
  });
  test("HTML detection", () => {
    expect(looksLikeHtml("\n<!DOCTYPE HTML PUBLIC>")).toBe(true);
    expect(looksLikeHtml("<html><body/></html>")).toBe(true);
    expect(looksLikeHtml("<?xml version=\"1.0\"?><RECEPCIONDTE/>")).toBe(false);
    expect(looksLikeHtml("{}", "text/html; charset=iso-8859-1")).toBe(true);
  });
});

describe("Chile's wall time (the SII's dates)", () => {
  test("an instant and its wall time, in summer (−3) and winter (−4); text that is not a wall time is null", () => {
    expect(instantOfChileTime("2026-01-15T10:00:00")?.toISOString()).toBe("2026-01-15T13:00:00.000Z");
    expect(instantOfChileTime("2026-07-15T10:00:00")?.toISOString()).toBe("2026-07-15T14:00:00.000Z");
    for (const at of ["2026-01-15T13:04:05.000Z", "2026-07-15T23:59:59.000Z"]) expect(instantOfChileTime(chileLocalTime(new Date(at)))?.toISOString()).toBe(at);
    expect(instantOfChileTime("15-01-2026 10:00:00")).toBeNull();
    expect(instantOfChileTime("")).toBeNull();
  });
});

test("chileLocalTime answers each second alike, whatever instant of it is asked and in what order", () => {
  expect(chileLocalTime(new Date("2026-01-15T13:04:05.001Z"))).toBe("2026-01-15T10:04:05");
  expect(chileLocalTime(new Date("2026-01-15T13:04:05.999Z"))).toBe("2026-01-15T10:04:05");
  expect(chileLocalTime(new Date("2026-01-15T13:04:06.000Z"))).toBe("2026-01-15T10:04:06");
  expect(chileLocalTime(new Date("2026-01-15T13:04:05.500Z"))).toBe("2026-01-15T10:04:05");
  expect(chileLocalTime(new Date("2026-07-15T13:04:05.500Z"))).toBe("2026-07-15T09:04:05");
});

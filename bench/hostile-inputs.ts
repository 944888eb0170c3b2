/**
 * How fast hostile inputs are refused (timings belong here, not in unit tests): `bun bench/hostile-inputs.ts
 * [--repeat 5]`. In-process app on PGlite (the HTTP pipeline and handlers, no sockets). Each case: status, code,
 * reason, median and max elapsed ms.
 */
import { generateTestCertificate } from "@timbre/core/testing";
import { createHarness } from "../apps/server/test/support/harness.js";
import { tenant } from "../apps/server/test/support/fixtures.js";
import { BILLION_LAUGHS } from "../apps/server/test/support/cafs.js";
import { arg, machine } from "./machine.js";

const REPEAT = Number(arg("repeat", "5"));
console.log(machine());
console.log(`command: bun bench/hostile-inputs.ts --repeat ${REPEAT}`);

const h = await createHarness("pglite");
const t = await tenant(h);
const cert = await generateTestCertificate({ rut: "11111111-1", name: "ANA", password: "clave", validFrom: new Date(Date.now() - 86_400_000), validTo: new Date(Date.now() + 86_400_000 * 30) });
const p12 = cert.p12;

const BIGGER_BOMB = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY a "aaaaaaaaaa">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join("")}]><AUTORIZACION><CAF><DA><RE>&j;</RE></DA></CAF></AUTORIZACION>`;
const XXE = `<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><AUTORIZACION><CAF><DA><RE>&x;</RE></DA></CAF></AUTORIZACION>`;
const DEEP_XML = `<AUTORIZACION>${"<a>".repeat(200_000)}${"</a>".repeat(200_000)}</AUTORIZACION>`;
const WIDE_XML = `<AUTORIZACION><CAF version="1.0"><DA>${"<X>1</X>".repeat(550_000)}</DA></CAF></AUTORIZACION>`;
const form = (bytes: Uint8Array, password: string) => {
  const f = new FormData();
  f.set("file", new Blob([bytes as Uint8Array<ArrayBuffer>]), "cert.p12");
  f.set("password", password);
  return f;
};
const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));
const huge = new Uint8Array(6 * 1024 * 1024);
huge.set(p12);

const biz = t.business.id;
const key = t.key.key;
const cases: [string, () => Promise<{ status: number; json: { error?: { code?: string; details?: { reason?: string } } } }>][] = [
  ["CAF billion laughs (raw XML)", () => h.call("POST", `/v1/businesses/${biz}/numerations`, { key, raw: BILLION_LAUGHS, headers: { "content-type": "application/xml" } })],
  ["CAF 10^10 entity bomb (JSON caf_xml)", () => h.call("POST", `/v1/businesses/${biz}/numerations`, { key, body: { caf_xml: BIGGER_BOMB } })],
  ["CAF external entity (file:///etc/passwd)", () => h.call("POST", `/v1/businesses/${biz}/numerations`, { key, raw: XXE, headers: { "content-type": "application/xml" } })],
  ["CAF 200,000-deep nesting (2.6 MB)", () => h.call("POST", `/v1/businesses/${biz}/numerations`, { key, raw: DEEP_XML, headers: { "content-type": "application/xml" } })],
  ["CAF 550,000 elements (4.4 MB)", () => h.call("POST", `/v1/businesses/${biz}/numerations`, { key, raw: WIDE_XML, headers: { "content-type": "application/xml" } })],
  ["CAF > 5 MiB", () => h.call("POST", `/v1/businesses/${biz}/numerations`, { key, raw: "<a>" + "x".repeat(5 * 1024 * 1024) + "</a>", headers: { "content-type": "application/xml" } })],
  ["PKCS#12 truncated to 100 bytes", () => h.call("POST", `/v1/businesses/${biz}/certificate`, { key, raw: form(p12.slice(0, 100), "clave") })],
  ["PKCS#12 truncated to half", () => h.call("POST", `/v1/businesses/${biz}/certificate`, { key, raw: form(p12.slice(0, p12.length >> 1), "clave") })],
  ["PKCS#12 random 4 KB", () => h.call("POST", `/v1/businesses/${biz}/certificate`, { key, raw: form(random(4096), "clave") })],
  ["PKCS#12 random 4 MiB", () => h.call("POST", `/v1/businesses/${biz}/certificate`, { key, raw: form(random(4 * 1024 * 1024), "clave") })],
  ["PKCS#12 > 5 MiB", () => h.call("POST", `/v1/businesses/${biz}/certificate`, { key, raw: form(huge, "clave") })],
  ["PKCS#12 wrong password", () => h.call("POST", `/v1/businesses/${biz}/certificate`, { key, raw: form(p12, "wrong") })],
  ["PKCS#12 right password (reference)", () => h.call("POST", `/v1/businesses/${biz}/certificate`, { key, raw: form(p12, "clave") })],
  ["JSON 1 MiB of '['", () => h.call("POST", "/v1/dte/preview", { key, raw: "[".repeat(1024 * 1024 - 1), headers: { "content-type": "application/json" } })],
  ["JSON 100,000-deep arrays (valid)", () => h.call("POST", "/v1/dte/preview", { key, raw: "[".repeat(100_000) + "]".repeat(100_000), headers: { "content-type": "application/json" } })],
  ["JSON 1 MiB string field", () => h.call("POST", "/v1/dte/preview", { key, body: { tipo: 33, receptor: { rut: "1-9", razon_social: "x".repeat(1024 * 1000) }, items: [] } })],
];

console.log("| Case | HTTP | code / reason | median ms | max ms |");
console.log("|---|---:|---|---:|---:|");
for (const [name, run] of cases) {
  const ms: number[] = [];
  let last = { status: 0, json: {} as { error?: { code?: string; details?: { reason?: string } } } };
  for (let i = 0; i < REPEAT; i++) {
    const start = performance.now();
    last = await run();
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  const code = last.json?.error ? `${last.json.error.code}${last.json.error.details?.reason ? ` / ${last.json.error.details.reason}` : ""}` : "ok";
  console.log(`| ${name} | ${last.status} | ${code} | ${(ms[ms.length >> 1] ?? 0).toFixed(1)} | ${(ms[ms.length - 1] ?? 0).toFixed(1)} |`);
}
const health = await h.call("GET", "/v1/health");
console.log(`health afterwards: ${health.status}`);
await h.close();

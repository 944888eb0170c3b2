// Build → timbre (TED) → sign → verify → print one boleta with @timbre/core, entirely in-process.
// Run: bun embed-core.js   (or, after `npm run build -w @timbre/core`: node embed-core.js)
//
// With your own material:  P12_PATH=firma.p12 P12_PASSWORD=… CAF_PATH=caf-39.xml FOLIO=1 bun embed-core.js
// Without it, a throw-away certificate and a CAF from a fake authority are generated: the XML is
// well-formed and verifies, but the SII would not accept it.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSignedDte, computeTotals, encodeLatin1, issueCaf, loadPkcs12, parseCaf, verifyDte } from "@timbre/core";
import { renderPdf } from "@timbre/core/pdf";
import { generateAuthorityKey, generateTestCertificate } from "@timbre/core/testing";

// OUT_DIR, by default `out/` beside this script (git-ignored), never the current folder
const outDir = process.env.OUT_DIR || fileURLToPath(new URL("out", import.meta.url));
const issuer = {
  rut: "76192083-9",
  razonSocial: "Café Austral SpA",
  giro: "Cafetería",
  acteco: [561000],
  direccion: "Av. Providencia 1234",
  comuna: "Providencia",
  ciudad: "Santiago",
};

// Core never reads the clock: time is an argument. TSTED/TmstFirma are Chile local time without zone.
const now = new Date();
const chile = new Intl.DateTimeFormat("sv-SE", {
  timeZone: "America/Santiago", year: "numeric", month: "2-digit", day: "2-digit",
  hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false,
}).format(now); // "2026-11-22 11:03:07"
const [fecha, time] = chile.split(" ");
const timestamp = `${fecha}T${time}`;

// 1. The signing identity: the holder's certificate and private key.
const identity = process.env.P12_PATH
  ? await loadPkcs12(readFileSync(process.env.P12_PATH), process.env.P12_PASSWORD ?? "")
  : await generateTestCertificate({
      rut: "11111111-1", name: "Ana Pérez (demo)", password: "demo",
      validFrom: new Date(now.getTime() - 86_400_000), validTo: new Date(now.getTime() + 365 * 86_400_000),
    });

// 2. The CAF (folio authorisation) whose key stamps the timbre.
const caf = process.env.CAF_PATH
  ? parseCaf(readFileSync(process.env.CAF_PATH))
  : issueCaf({
      authority: generateAuthorityKey(999), rut: issuer.rut, razonSocial: issuer.razonSocial,
      tipo: 39, desde: 1, hasta: 100, fechaAutorizacion: fecha,
    }).caf;

// 3. The document, in core's domain model (camelCase; the HTTP API maps its Spanish JSON onto it).
/** @type {import("@timbre/core").DocumentInput} */
const input = {
  tipo: 39,
  folio: Number(process.env.FOLIO ?? 1),
  fecha,
  issuer,
  receiver: { rut: "66666666-6", razonSocial: "Consumidor final" },
  preciosBrutos: true,
  items: [
    { nombre: "Café cortado", cantidad: 2, precio: 2500 },
    { nombre: "Medialuna", cantidad: 3, precio: "1290.5" },
  ],
};

const totals = computeTotals(input); // exact decimal arithmetic, half away from zero
const dte = buildSignedDte({ input, totals, caf, identity, timestamp }); // validates; throws ValidationError
const verification = verifyDte(dte.xml); // signature + TED, the SII way
if (!verification.valid) throw new Error(`verification failed: ${verification.errors.join("; ")}`);

const pdf = await renderPdf({ input, totals, ted: dte.ted, resolution: { numero: 0, fecha: "2014-08-22" } }, { formato: "termica" });

mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, `${dte.documentId}.xml`), encodeLatin1(dte.xml)); // the stored bytes are ISO-8859-1
writeFileSync(join(outDir, `${dte.documentId}.pdf`), pdf);
console.log(
  `${dte.documentId}: neto ${totals.montoNeto}, IVA ${totals.montoIva}, total ${totals.montoTotal}; signature and timbre verify.\n` +
    `Wrote ${join(outDir, `${dte.documentId}.xml`)} and ${join(outDir, `${dte.documentId}.pdf`)}`,
);

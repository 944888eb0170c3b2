/**
 * The largest document the API takes, printed: `bun bench/pdf-render.ts [--repeat 3] [--words off]`. A boleta 39 of 1,000 lines
 * whose descriptions run to the 1,000-character limit, sized so the emit body stays under the 1 MB JSON limit
 * (the body of the issue-41 report). One thread, in process: carta preview (what `POST /dte/preview?format=pdf`
 * renders), carta with a timbre and térmica (what `GET /dte/{id}/pdf` renders). Each case: wall-clock median and max, and the
 * process's CPU time (steadier than wall-clock on a shared machine), in ms.
 */
import { issueCaf } from "@timbre/core/caf";
import { renderPdf, type RenderOptions } from "@timbre/core/pdf";
import { generateAuthorityKey } from "@timbre/core/testing";
import { computeTotals } from "@timbre/core/totals";
import { buildTed } from "@timbre/core/xml";
import { largestBoleta } from "../apps/server/tests/support/largest-boleta.js";
import { arg, machine } from "./machine.js";

const REPEAT = Number(arg("repeat", "3"));
console.log(machine());
console.log(`command: bun bench/pdf-render.ts --repeat ${REPEAT} --words ${arg("words", "on")}`);

const WORDS = arg("words", "on") !== "off";
const body = largestBoleta({ words: WORDS });
console.log(`emit body: ${(JSON.stringify(body).length / 1024).toFixed(0)} KiB, ${body.items.length} lines`);
const input = {
  tipo: 39 as const,
  folio: 1,
  fecha: "2026-11-20",
  issuer: { rut: "76192083-9", razonSocial: "SASCO SpA", giro: "Software", acteco: [726000], direccion: "Av. Providencia 1234", comuna: "Providencia" },
  receiver: { rut: body.receptor.rut, razonSocial: body.receptor.razon_social },
  preciosBrutos: true,
  items: body.items.map((i) => ({ nombre: i.nombre, cantidad: i.cantidad, precio: i.precio, descripcion: i.descripcion })),
};
const totals = computeTotals(input);
const authority = generateAuthorityKey(999);
const caf = issueCaf({ authority, rut: input.issuer.rut, razonSocial: input.issuer.razonSocial, tipo: 39, desde: 1, hasta: 10, fechaAutorizacion: "2026-01-15" }).caf;
const ted = buildTed({ input, totals, caf, timestamp: "2026-11-20T10:00:00" });

const cases: Array<[string, { ted: string | null }, RenderOptions]> = [
  ["carta preview (POST /dte/preview?format=pdf)", { ted: null }, { preview: true }],
  ["carta with timbre (GET /dte/{id}/pdf)", { ted }, {}],
  ["termica with timbre (GET /dte/{id}/pdf?formato=termica)", { ted }, { formato: "termica" }],
];
for (const [label, { ted: t }, options] of cases) {
  const times: number[] = [];
  const cpu: number[] = [];
  let size = 0;
  for (let i = 0; i < REPEAT; i++) {
    const start = performance.now();
    const used = process.cpuUsage();
    size = (await renderPdf({ input, totals, ted: t, resolution: { numero: 80, fecha: "2014-08-22" } }, options)).byteLength;
    const { user, system } = process.cpuUsage(used);
    times.push(performance.now() - start);
    cpu.push((user + system) / 1000);
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const ms = (v: number): string => v.toFixed(0).padStart(6);
  console.log(`${label.padEnd(58)} wall median ${ms(median(times))} ms, max ${ms(Math.max(...times))} ms; CPU median ${ms(median(cpu))} ms; ${(size / 1024).toFixed(0)} KiB`);
}

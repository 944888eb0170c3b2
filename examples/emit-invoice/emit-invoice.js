// Emit a factura electrónica (33), wait until the SII accepts or rejects it, and save its PDF and XML.
// Run: TIMBRE_API_KEY=sk_test_… node emit-invoice.js   (TIMBRE_API_URL defaults to http://localhost:3000/v1)
// The files go to OUT_DIR, by default `out/` beside this script (git-ignored), never the current folder.
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { Timbre, TimbreError, ValidationError } from "@timbre/sdk";

const client = new Timbre({
  apiKey: process.env.TIMBRE_API_KEY,
  baseUrl: process.env.TIMBRE_API_URL ?? "http://localhost:3000/v1",
});
const outDir = process.env.OUT_DIR || fileURLToPath(new URL("out", import.meta.url));

/** @type {import("@timbre/sdk").EmitParams} */
const invoice = {
  tipo: 33,
  receptor: {
    rut: "76192083-9",
    razon_social: "Cliente Ejemplo SpA",
    giro: "Comercio al por menor",
    direccion: "Av. Apoquindo 4500",
    comuna: "Las Condes",
  },
  items: [
    { nombre: "Consultoría", cantidad: 10, precio: 45000, unidad: "HORA" },
    { nombre: "Licencia anual", cantidad: 1, precio: 120000, descuento_porcentaje: 10 },
  ],
  forma_pago: 2,
};

try {
  const dte = await client.dte.emit(invoice);
  console.log(`Emitted ${dte.id}: folio ${dte.folio}, total $${dte.monto_total.toLocaleString("es-CL")}, ${dte.estado}`);

  const final = await client.dte.waitForFinalStatus(dte.id, {
    interval: Number(process.env.POLL_INTERVAL_MS ?? 3000),
    onPoll: (status) => console.log(`  status: ${status.estado}`),
  });
  if (final.estado === "RECHAZADO") {
    console.error("The SII rejected the document:", final.sii?.errores ?? []);
    process.exitCode = 1;
  } else {
    await mkdir(outDir, { recursive: true });
    const pdf = `${outDir}/factura-${dte.folio}.pdf`;
    const xml = `${outDir}/factura-${dte.folio}.xml`;
    await writeFile(pdf, await client.dte.pdf(dte.id));
    await writeFile(xml, await client.dte.xml(dte.id)); // keep the signed XML: it is the legal document
    console.log(`${final.estado}. Saved ${pdf} and ${xml}`);
  }
} catch (error) {
  if (error instanceof ValidationError) {
    console.error(`Invalid request (${error.code}):`);
    for (const issue of error.issues) console.error(`  ${issue.field}: ${issue.reason}`);
  } else if (error instanceof TimbreError) {
    console.error(`${error.name} ${error.code}: ${error.message}${error.requestId ? ` (request ${error.requestId})` : ""}`);
  } else {
    throw error;
  }
  process.exitCode = 1;
}

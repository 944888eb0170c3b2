/**
 * Received envelopes for tests and benchmarks: an `EnvioDTE` of facturas from a supplier (76192083-9) to a
 * receiver, signed with a generated certificate, its CAF from a generated SII authority (known to no server, so a
 * server keeps the documents unverified, `caf` not `ok`; give the verifier `authority` to verify them).
 */
import { buildEnvelope, buildSignedDte, computeTotals, type DocumentInput } from "@timbre/core";
import { issueCaf } from "@timbre/core/caf";
import { generateAuthorityKey, generateTestCertificate, type TestAuthorityKey } from "@timbre/core/testing";

export const SUPPLIER = "76192083-9";
/** The largest envelope any door takes (`ENVELOPE_LIMIT`). */
const ENVELOPE_LIMIT = 5 * 1024 * 1024;

export interface ReceivedEnvelopeMaker {
  authority: TestAuthorityKey;
  /** An envelope of `count` facturas to `receiver`, folios from `firstFolio`. */
  envelope(receiver: string, count: number, firstFolio?: number): string;
  /** As many facturas as fit in 5 MiB, less `marginBytes`. */
  largest(receiver: string, firstFolio?: number, marginBytes?: number): string;
}

const input = (receiver: string, folio: number): DocumentInput => ({
  tipo: 33,
  folio,
  fecha: "2026-01-15",
  issuer: { rut: SUPPLIER, razonSocial: "Proveedor SpA", giro: "Comercio", acteco: [620200], direccion: "Av. Uno 1", comuna: "Santiago" },
  receiver: { rut: receiver, razonSocial: "Compradora SpA", giro: "Comercio", direccion: "Calle 2", comuna: "Providencia" },
  items: [
    { nombre: "Servicio de consultoría", cantidad: 2, precio: 50000 },
    { nombre: "Licencia", cantidad: 1.5, precio: 10000.5, descuentoPorcentaje: 10 },
  ],
});

export async function receivedEnvelopeMaker(): Promise<ReceivedEnvelopeMaker> {
  const authority = generateAuthorityKey(100);
  const cert = await generateTestCertificate({ rut: "11111111-1", name: "ANA PEREZ", password: "x", validFrom: new Date(Date.now() - 86_400_000), validTo: new Date(Date.now() + 365 * 86_400_000) });
  const identity = { privateKey: cert.privateKey, certificateDer: cert.certificateDer };
  const caf = issueCaf({ authority, rut: SUPPLIER, razonSocial: "Proveedor SpA", tipo: 33, desde: 1, hasta: 100_000, fechaAutorizacion: "2026-01-01" }).caf;
  const envelope = (receiver: string, count: number, firstFolio = 1): string => {
    const dtes = Array.from({ length: count }, (_, i) => {
      const doc = input(receiver, firstFolio + i);
      return buildSignedDte({ input: doc, totals: computeTotals(doc), caf, identity, timestamp: "2026-01-15T10:00:00" });
    });
    return buildEnvelope({ kind: "EnvioDTE", rutEmisor: SUPPLIER, rutEnvia: "11111111-1", rutReceptor: receiver, resolution: { numero: 0, fecha: "2026-01-01" }, dtes, identity, timestamp: "2026-01-15T10:00:00" });
  };
  return {
    authority,
    envelope,
    largest(receiver, firstFolio = 1, marginBytes = 16 * 1024) {
      const perDte = envelope(receiver, 2, firstFolio).length - envelope(receiver, 1, firstFolio).length;
      const count = Math.min(2000, Math.floor((ENVELOPE_LIMIT - marginBytes) / (perDte + 8)));
      return envelope(receiver, count, firstFolio);
    },
  };
}

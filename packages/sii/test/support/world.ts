/**
 * Test world: a sandbox served over real HTTP on loopback (ephemeral port), a test certificate, a client, and
 * helpers that build signed envelopes with core's builders.
 */
import type { Caf } from "@timbre/core/caf";
import type { DocumentInput, Issuer, Reference, Resolution, Tipo } from "@timbre/core";
import { generateTestCertificate, uncheckedEnvioDte, uncheckedSignedDte } from "@timbre/core/testing";
import { computeTotals } from "@timbre/core/totals";
import { buildEnvelope, buildSignedDte, encodeLatin1 } from "@timbre/core/xml";
import { SiiClient, type SiiClientOptions, type SiiIdentity } from "../../src/client/index.js";
import { createSandbox, type Sandbox, type SandboxOptions } from "../../src/sandbox/index.js";

export const EMISOR = "76192083-9";
export const HOLDER = "11111111-1";
export const TODAY = new Date().toISOString().slice(0, 10);

let identityPromise: Promise<SiiIdentity> | undefined;

/** One certificate for the whole run (RSA generation is slow). */
export function testIdentity(): Promise<SiiIdentity> {
  identityPromise ??= generateTestCertificate({
    rut: HOLDER, name: "Persona de Prueba", validFrom: new Date(Date.now() - 86_400_000),
    validTo: new Date(Date.now() + 365 * 86_400_000), password: "x",
  }).then((c) => ({ privateKey: c.privateKey, certificateDer: c.certificateDer, holderRut: HOLDER }));
  return identityPromise;
}

/** A running sandbox and a client pointed at it. */
export interface World {
  sandbox: Sandbox;
  baseUrl: string;
  identity: SiiIdentity;
  client: SiiClient;
  newClient(options?: Partial<SiiClientOptions>): SiiClient;
  stop(): void;
}

/** Starts `Bun.serve` on 127.0.0.1:0 with a fresh sandbox. */
export async function startWorld(sandboxOptions: SandboxOptions = {}, clientOptions: Partial<SiiClientOptions> = {}): Promise<World> {
  const sandbox = createSandbox({ stepMs: 0, ...sandboxOptions });
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: sandbox.handler, idleTimeout: 30 });
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const identity = await testIdentity();
  const newClient = (options: Partial<SiiClientOptions> = {}) =>
    new SiiClient({ environment: { baseUrl }, identity, timeouts: { requestMs: 5_000 }, ...clientOptions, ...options });
  return {
    sandbox, baseUrl, identity, client: newClient(), newClient,
    stop() {
      sandbox.close();
      void server.stop(true);
    },
  };
}

/** What varies between test documents. */
export interface DocSpec {
  tipo?: Tipo;
  folio: number;
  receptor?: string;
  fecha?: string;
  precio?: number;
  caf?: Caf;
  /** For notes (56, 61): the documents they modify. */
  referencias?: Reference[];
  /** Issuer fields that differ from the test issuer (SASCO SpA, acteco 620200). */
  issuer?: Partial<Issuer>;
  /** The receiver's RUT (default 77777777-7 on facturas). */
  receptorRut?: string;
  /** Skip core's validation: build what core would refuse (the sandbox must judge it). */
  unchecked?: boolean;
}

const cafs = new Map<string, Caf>();

/** A CAF from the sandbox for folios 1–1000 of this tipo (cached per sandbox). */
export function cafFor(world: World, tipo: Tipo): Caf {
  const key = `${world.baseUrl}|${tipo}`;
  let caf = cafs.get(key);
  if (caf === undefined) {
    caf = world.sandbox.issueCaf({ rut: EMISOR, tipo, desde: 1, hasta: 1000, fechaAutorizacion: TODAY, razonSocial: "SASCO SpA" }).caf;
    cafs.set(key, caf);
  }
  return caf;
}

/** Builds a DocumentInput for a spec. */
export function documentInput(spec: DocSpec): DocumentInput {
  const tipo = spec.tipo ?? 33;
  const boleta = tipo === 39 || tipo === 41;
  return {
    tipo,
    folio: spec.folio,
    fecha: spec.fecha ?? TODAY,
    ...(boleta ? { preciosBrutos: true } : { formaPago: 1 }),
    issuer: { rut: EMISOR, razonSocial: "SASCO SpA", giro: "Tecnología", acteco: [620200], direccion: "Santa Cruz", comuna: "Santa Cruz", ...spec.issuer },
    receiver: boleta
      ? { rut: "66666666-6", razonSocial: spec.receptor ?? "Consumidor final" }
      : { rut: spec.receptorRut ?? "77777777-7", razonSocial: spec.receptor ?? "Cliente de Prueba Ltda", giro: "Comercio", direccion: "Calle 1", comuna: "Santiago" },
    items: [{ nombre: "Producto de prueba", cantidad: 1, precio: spec.precio ?? 1190, unidad: "UN" }],
    ...(spec.referencias ? { referencias: spec.referencias } : {}),
  };
}

/** Options of {@link envelopeBytes}. */
export interface EnvelopeSpec {
  kind?: "EnvioDTE" | "EnvioBOLETA";
  docs: DocSpec[];
  rutEnvia?: string;
  rutReceptor?: string;
  /** Changes the text of the signed envelope (tampering). */
  mutate?: (xml: string) => string;
  /** The signing time (`YYYY-MM-DDTHH:MM:SS`), default now: two uploads of the same documents in one second are one file. */
  timestamp?: string;
  /** The carátula's resolution (default certificación's: NroResol 0 of 2014-08-22). */
  resolution?: Resolution;
}

/** A signed envelope's ISO-8859-1 bytes. */
export async function envelopeBytes(world: World, spec: EnvelopeSpec): Promise<Uint8Array> {
  const timestamp = spec.timestamp ?? new Date().toISOString().slice(0, 19);
  const dtes = spec.docs.map((doc) => {
    const input = documentInput(doc);
    const options = { input, totals: computeTotals(input), caf: doc.caf ?? cafFor(world, input.tipo), identity: world.identity, timestamp };
    return doc.unchecked ? uncheckedSignedDte(options) : buildSignedDte(options).xml;
  });
  const xml = buildEnvelope({
    kind: spec.kind ?? "EnvioDTE", rutEmisor: EMISOR, rutEnvia: spec.rutEnvia ?? HOLDER,
    ...(spec.rutReceptor ? { rutReceptor: spec.rutReceptor } : {}),
    resolution: spec.resolution ?? { numero: 0, fecha: "2014-08-22" }, dtes, identity: world.identity, timestamp,
  });
  return encodeLatin1(spec.mutate ? spec.mutate(xml) : xml);
}

/** A fetch that records the path of every request it sends. */
export function recordingFetch(): { fetch: typeof fetch; paths: string[] } {
  const paths: string[] = [];
  const wrapped = ((input: RequestInfo | URL, init?: RequestInit) => {
    paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
    return fetch(input, init);
  }) as typeof fetch;
  return { fetch: wrapped, paths };
}

/**
 * An EnvioDTE signed over DTEs core would refuse to put together (one folio twice): what other software may send.
 * Each DTE's Documento takes the given `id` (copies need distinct IDs).
 */
export function rawEnvelopeBytes(world: World, docs: Array<DocSpec & { id: string }>): Uint8Array {
  const timestamp = new Date().toISOString().slice(0, 19);
  const dtes = docs.map((doc) => {
    const input = documentInput(doc);
    return uncheckedSignedDte({ input, totals: computeTotals(input), caf: doc.caf ?? cafFor(world, input.tipo), identity: world.identity, timestamp, id: doc.id });
  });
  return encodeLatin1(uncheckedEnvioDte({ rutEmisor: EMISOR, rutEnvia: HOLDER, resolution: { numero: 0, fecha: "2014-08-22" }, dtes, identity: world.identity, timestamp }));
}

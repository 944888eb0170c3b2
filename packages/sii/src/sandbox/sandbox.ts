import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { issueCaf as coreIssueCaf, type AuthorityKey, type Caf } from "@timbre/core/caf";
import { normalizeRut } from "@timbre/core/rut";
import { schemasDir } from "@timbre/xsd";
import type { EnvelopeRecord } from "./envelopes.js";
import type { FaultInjector } from "./faults.js";
import { routeRequest } from "./handler.js";
import { SandboxJournal } from "./journal.js";
import type { RegisteredDocument } from "./registry.js";
import type { ResultMailOption } from "./result-mail.js";
import { SandboxState } from "./state.js";
import { cacheXmldomRegExps } from "./xmldom-regexp-cache.js";

cacheXmldomRegExps();

/** The sandbox's CAF-signing authority (its stand-in for the SII keys). */
export interface SandboxAuthority {
  idk: number;
  publicKey: KeyObject;
  privateKey: KeyObject;
}

/** Options of {@link createSandbox}. */
export interface SandboxOptions {
  /** Authority key pair; default a fresh RSA-512 key with `idk`. */
  authority?: SandboxAuthority;
  /** IDK of a generated authority (default 9999). */
  idk?: number;
  /** More CAF authorities to trust (e.g. the SII's IDK 100 key to accept real certification CAFs). */
  trustedAuthorities?: AuthorityKey[];
  /** Clock (default wall clock). */
  now?: () => Date;
  /** Delay between processing steps REC → SOK → CRT → FOK → EPR (default 1000 ms; 0 = immediate). */
  stepMs?: number;
  /** Seed validity (default 2 minutes). */
  seedTtlMs?: number;
  /** Token validity (default 1 hour). */
  tokenTtlMs?: number;
  /** How long hung requests (`[sandbox:timeout]`, `timeout` fault) wait before answering (default 10 minutes). */
  hangMs?: number;
  /** Code for `[sandbox:rechazo]` (default HED-3-305) and `[sandbox:reparos]` (default HED-1-863). */
  rejectionCode?: string;
  remarkCode?: string;
  /** Issuers enabled as electronic issuers (others get upload STATUS 6); default every issuer. */
  companies?: string[];
  /**
   * XSD validation of uploads: `auto` (default: against the SII's schemas, bundled or `TIMBRE_SII_SCHEMAS`; without
   * them the sandbox is not created) or `off`.
   */
  xsd?: "auto" | "off";
  /**
   * Second signature check of every upload with xml-crypto (core's `crossCheck`): `on` (default) or `off` — the
   * lean setting for load benchmarks, where this test double shares the CPU with the service under test.
   */
  crossCheck?: "on" | "off";
  /**
   * A JSON-lines file where the sandbox keeps what it received (envelopes, documents, TRACKIDs, authorised ranges,
   * receivers' events) and reads back on start, as the SII remembers across restarts; default: memory only.
   */
  stateFile?: string;
  /**
   * The SII environment it stands for (default `certificacion`, maullin): the carátula's NroResol must be 0 there and
   * above 0 in `produccion`, else RCT with CRT-3-19.
   */
  environment?: "certificacion" | "produccion";
  /**
   * The SII's result mail: for each `EnvioDTE` envelope it finishes reviewing, the sandbox calls `send` with the
   * `RESULTADO_ENVIO` for the issuer's *mail de contacto SII* (BRIEF-intercambio §5); default none. Addressing and
   * transport are the caller's (Timbre's in-process sandbox mails it over SMTP to the business's intercambio address).
   */
  resultMail?: ResultMailOption;
}

/** Input of {@link Sandbox.issueCaf}. */
export interface SandboxCafInput {
  rut: string;
  tipo: number;
  desde: number;
  hasta: number;
  razonSocial?: string;
  /** `YYYY-MM-DD`; default today in the sandbox clock. */
  fechaAutorizacion?: string;
}

/** A local SII: a fetch handler plus its authority, CAF issuing, fault injection and inspection helpers. */
export interface Sandbox {
  /** Serves the SII paths: `Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: sandbox.handler })`. */
  handler: (req: Request) => Promise<Response>;
  authority: SandboxAuthority;
  /** The authority as core's `AuthorityKey` (give it to the server so it trusts the sandbox's CAFs). */
  authorityKey: AuthorityKey;
  /** Issues a CAF signed by the sandbox authority (any RUT and tipo). */
  issueCaf(input: SandboxCafInput): { xml: string; caf: Caf };
  /** Programmable faults: `faults.set({ mode: "down" | "http500" | "html" | "timeout" | "token_refused", count?, path? })`. */
  faults: FaultInjector;
  /** Every envelope received, newest last. */
  envelopes(): EnvelopeRecord[];
  envelope(trackId: string): EnvelopeRecord | undefined;
  /** Every document registered. */
  documents(): RegisteredDocument[];
  /** Expires every issued token (to test re-authentication). */
  expireTokens(): void;
  /** Releases hung requests. */
  close(): void;
}

/**
 * Creates a local SII sandbox speaking the SII's protocols (see README / BRIEF §7.6).
 *
 * @example
 * const sandbox = createSandbox({ stepMs: 0 });
 * const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: sandbox.handler });
 * const { xml } = sandbox.issueCaf({ rut: "76192083-9", tipo: 33, desde: 1, hasta: 100 });
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  // A sandbox that validates must find its schemas now (the error names TIMBRE_SII_SCHEMAS), not skip them later.
  if (options.xsd !== "off") schemasDir();
  const idk = options.authority?.idk ?? options.idk ?? 9999;
  const authority = options.authority ?? { idk, ...generateKeyPairSync("rsa", { modulusLength: 512, publicExponent: 65537 }) };
  const authorityKey: AuthorityKey = { idk: authority.idk, publicKey: authority.publicKey };
  const now = options.now ?? (() => new Date());
  const state = new SandboxState(
    {
      now,
      stepMs: options.stepMs ?? 1000,
      hangMs: options.hangMs ?? 10 * 60_000,
      authorities: [authorityKey, ...(options.trustedAuthorities ?? [])],
      rejectionCode: options.rejectionCode ?? "HED-3-305",
      remarkCode: options.remarkCode ?? "HED-1-863",
      xsd: options.xsd ?? "auto",
      crossCheck: options.crossCheck ?? "on",
      companies: options.companies ? options.companies.map((rut) => normalizeRut(rut)) : null,
      namespaceHost: "maullin.sii.cl",
      environment: options.environment ?? "certificacion",
    },
    options.seedTtlMs ?? 120_000,
    options.tokenTtlMs ?? 3_600_000,
  );
  state.resultMail = options.resultMail ?? null;
  if (options.stateFile !== undefined) state.keepIn(new SandboxJournal(options.stateFile));
  return {
    handler: (req) => routeRequest(state, req),
    authority,
    authorityKey,
    issueCaf(input) {
      const issued = coreIssueCaf({
        authority,
        rut: input.rut,
        razonSocial: input.razonSocial ?? "EMPRESA DE PRUEBA SANDBOX",
        tipo: input.tipo,
        desde: input.desde,
        hasta: input.hasta,
        // today in Chile, as the SII dates a CAF (the UTC date is already tomorrow there after 21:00)
        fechaAutorizacion: input.fechaAutorizacion ?? now().toLocaleDateString("en-CA", { timeZone: "America/Santiago" }),
      });
      const range = { rut: normalizeRut(input.rut), tipo: input.tipo, desde: input.desde, hasta: input.hasta };
      state.registry.addRange(range.rut, range.tipo, range.desde, range.hasta);
      state.remember({ kind: "range", ...range });
      return issued;
    },
    faults: state.faults,
    envelopes: () => [...state.envelopes.values()],
    envelope: (trackId) => state.envelopes.get(trackId),
    documents: () => state.registry.all(),
    expireTokens: () => state.credentials.expireAllTokens(),
    close: () => state.releaseHung(),
  };
}

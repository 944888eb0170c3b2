/**
 * Who timbres and signs the documents of an emission round: this thread (`inlineSigner`) or a pool of worker threads
 * (`startSigningThreads`, `signing-threads.ts`). RSA signing is most of an emission's CPU on the server's JavaScript thread,
 * so with one thread a single server process saturates that thread well before the machine's cores
 * (bench/RESULTS.md §6, 2026-11-27). Both sign with core's `buildSignedDteOfTipo` and give the same bytes; envelopes, with
 * `buildEnvelope`.
 */
import { buildEnvelope, buildSignedDteOfTipo, type EnvelopeOptions, type SignedDte, type SignedDteOptions } from "@timbre/core/xml";
import { startSigningThreads } from "./signing-threads.js";

/** One result per job, in order: the signed DTE, or what `buildSignedDteOfTipo` threw for it. */
export type SignResult = { ok: true; signed: SignedDte } | { ok: false; error: unknown };

export interface DocumentSigner {
  /** Signs every job; never rejects for one job's error (that job's result carries it). */
  sign(jobs: SignedDteOptions[]): Promise<SignResult[]>;
  /**
   * `buildEnvelope`: the envelope's C14N of every document and its RSA signature, which on the server's thread were
   * about an eighth of that thread's CPU at the peak. Rejects with what `buildEnvelope` threw.
   */
  signEnvelope(options: EnvelopeOptions): Promise<string>;
  /** Stops the threads, if any. Idempotent. */
  close(): Promise<void>;
}

function signHere(options: SignedDteOptions): SignResult {
  try {
    return { ok: true, signed: buildSignedDteOfTipo(options) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Signs on the calling thread. */
export const inlineSigner: DocumentSigner = {
  sign: async (jobs) => jobs.map(signHere),
  signEnvelope: async (options) => buildEnvelope(options),
  close: async () => {},
};

const pools = new Map<number, DocumentSigner>();

/**
 * The signer for `threads` (0: this thread). Worker threads are shared by every app of the process with the same
 * count (tests start many) and started on first use; they never keep the process alive.
 */
export function documentSigner(threads: number): DocumentSigner {
  if (threads <= 0) return inlineSigner;
  let pool = pools.get(threads);
  if (pool === undefined) pools.set(threads, (pool = startSigningThreads(threads)));
  return pool;
}

/**
 * `buildSignedDte` for each job; throws the first job's error, if any (an emission round's transaction then rolls
 * back and each document is tried alone, `create-document.ts`).
 */
export async function signAll(signer: DocumentSigner, jobs: SignedDteOptions[]): Promise<SignedDte[]> {
  const results = await signer.sign(jobs);
  return results.map((r) => {
    if (!r.ok) throw r.error;
    return r.signed;
  });
}

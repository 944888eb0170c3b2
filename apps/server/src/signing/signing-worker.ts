/**
 * A signing thread: runs core's `buildSignedDteOfTipo` for the jobs it is sent (`signing-wire.ts`) — and `buildEnvelope`
 * for an envelope — and keeps the CAFs and identities it was sent, by number, for the next jobs.
 */
import type { Caf } from "@timbre/core/caf";
import { buildEnvelope, buildSignedDteOfTipo, type SignedDteOptions } from "@timbre/core/xml";
import { toWireError, type SignRequest, type SignResponse, type WireEnvelope, type WireEnvelopeResult, type WireResult } from "./signing-wire.js";

const cafs = new Map<number, Caf>();
const identities = new Map<number, SignedDteOptions["identity"]>();

declare const self: { onmessage: ((event: MessageEvent<SignRequest>) => void) | null; postMessage(message: SignResponse): void };

self.onmessage = ({ data: request }) => {
  const { seq, jobs } = request;
  for (const [id, caf] of request.cafs) cafs.set(id, caf);
  for (const [id, identity] of request.identities) identities.set(id, identity);
  const results = jobs.map((job): WireResult => {
    try {
      const caf = cafs.get(job.caf);
      const identity = identities.get(job.identity);
      if (caf === undefined || identity === undefined) throw new Error("signing thread: a job names a CAF or identity it was never sent");
      return { ok: true, signed: buildSignedDteOfTipo({ input: job.input, totals: job.totals, timestamp: job.timestamp, caf, identity }) };
    } catch (error) {
      return { ok: false, error: toWireError(error) };
    }
  });
  self.postMessage(request.envelope === undefined ? { seq, results } : { seq, results, envelope: envelopeOf(request.envelope) });
};

function envelopeOf(envelope: WireEnvelope): WireEnvelopeResult {
  try {
    const identity = identities.get(envelope.identity);
    if (identity === undefined) throw new Error("signing thread: an envelope names an identity it was never sent");
    return { ok: true, xml: buildEnvelope({ ...envelope, identity }) };
  } catch (error) {
    return { ok: false, error: toWireError(error) };
  }
}

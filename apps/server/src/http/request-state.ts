/**
 * Per-request state shared by the pipeline hooks (request id, timing, resolved credential, raw-body hash,
 * idempotency record). Keyed by the `Request` object, so nothing leaks between requests.
 */
import type { Credential } from "./credential.js";
import type { ClaimedIdempotencyKey } from "./idempotency.js";

export interface RequestState {
  id: string;
  startedAt: number;
  ip: string;
  /** `undefined` when no credential was sent; `"invalid"` when one was sent and refused. */
  credential: Credential | "invalid" | undefined;
  bodyHash: string | null;
  idempotency: ClaimedIdempotencyKey | null;
  status: number | null;
}

const states = new WeakMap<Request, RequestState>();

export function setState(request: Request, state: RequestState): void {
  states.set(request, state);
}

export function stateOf(request: Request): RequestState {
  let state = states.get(request);
  if (!state) {
    state = { id: "req_unknown", startedAt: Date.now(), ip: "unknown", credential: undefined, bodyHash: null, idempotency: null, status: null };
    states.set(request, state);
  }
  return state;
}

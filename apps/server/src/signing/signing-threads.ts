/**
 * A pool of signing threads (`signing-worker.ts`). The jobs of the calls made in one turn of the event loop travel
 * together, split over the threads, the least busy first, so one emission round signs on several cores at once and
 * the server's own thread stays free for HTTP and the database. The threads are shared fairly between businesses:
 * jobs wait in a queue per business (`fair-queue.ts`) and a thread is sent a few at a time, taken from each
 * business in turn, so one business's batch of hundreds does not hold another's emission behind all of it. A
 * thread that dies fails the jobs it held (their round retries them) and is replaced. Idle threads do not keep the
 * process alive.
 */
import type { KeyObject } from "node:crypto";
import type { Caf } from "@timbre/core/caf";
import type { EnvelopeOptions, SignedDteOptions } from "@timbre/core/xml";
import type { DocumentSigner, SignResult } from "./document-signer.js";
import { FairQueue } from "./fair-queue.js";
import { fromWireError, type SignRequest, type SignResponse, type WireJob } from "./signing-wire.js";

type SigningIdentity = SignedDteOptions["identity"];

interface Pending {
  timer: ReturnType<typeof setTimeout>;
  resolve: (response: SignResponse) => void;
  reject: (error: Error) => void;
}

/** Bun's Web `Worker` (rather than node:worker_threads' emulation), with the `ref`/`unref` and `smol` it adds. */
interface BunWorker {
  postMessage(message: unknown): void;
  terminate(): void;
  ref(): void;
  unref(): void;
  onmessage: ((event: MessageEvent<SignResponse>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  addEventListener(type: "close", listener: (event: Event) => void): void;
}

const BunWorkerClass = Worker as unknown as new (url: string, options: { smol?: boolean }) => BunWorker;

/** A `sign` call: its results as they come back, settled once all are in or a thread holding one fails. */
interface Call {
  results: SignResult[];
  remaining: number;
  settled: boolean;
  resolve: (results: SignResult[]) => void;
  reject: (error: unknown) => void;
}

/** What waits in a business's queue: one job of a call, or an envelope. */
type Queued =
  | { kind: "job"; job: SignedDteOptions; call: Call; index: number }
  | { kind: "envelope"; options: EnvelopeOptions; resolve: (xml: string) => void; reject: (error: unknown) => void };

interface Thread {
  worker: BunWorker;
  /** CAFs and identities this thread already holds, by number. */
  sent: Set<number>;
  pending: Map<number, Pending>;
  /** Messages sent and not yet answered. */
  inFlight: number;
}

const WORKER_URL = new URL("./signing-worker.ts", import.meta.url);
/**
 * `smol`: JavaScriptCore's small heap for the thread (it holds a round's jobs at a time), which keeps the server's
 * RSS under load below the capacity goal's 300 MB (bench/RESULTS.md §6).
 */
const SMALL_HEAP = { smol: true };

/**
 * Jobs in one message at most: enough to spare a wake-up per document (bench/RESULTS.md §6, twelfth session), few
 * enough that a business whose emission arrives behind another's batch waits for at most this many of its jobs.
 */
const MAX_JOBS_PER_MESSAGE = 16;
/** Messages a thread holds at once: the next is already there when it answers one, so it never waits for us. */
const MESSAGES_PER_THREAD = 2;

/** The business a job is signed for: its issuer's RUT (digits and check digit only). */
const businessOf = (rut: string): string => rut.replace(/[^0-9kK]/g, "").toUpperCase();

/** Byte equality without copying either array (`Buffer.from(view)` would copy a certificate per document). */
const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a === b || (a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(b));

/** Numbers for CAFs (by object: `load-caf.ts` keeps one per numeration) and identities (by private key + certificate). */
class KeyNumbers {
  private next = 1;
  private readonly cafs = new WeakMap<Caf, number>();
  private readonly identities = new WeakMap<KeyObject, { der: Uint8Array; id: number }>();

  caf(caf: Caf): number {
    let id = this.cafs.get(caf);
    if (id === undefined) this.cafs.set(caf, (id = this.next++));
    return id;
  }

  identity(identity: SigningIdentity): number {
    const known = this.identities.get(identity.privateKey);
    if (known !== undefined && sameBytes(known.der, identity.certificateDer)) return known.id;
    const id = this.next++;
    this.identities.set(identity.privateKey, { der: identity.certificateDer, id });
    return id;
  }
}

export interface SigningThreadsOptions {
  /**
   * A thread that has not answered a message within this time is taken for stuck: its jobs fail (their emission
   * round rolls back and its documents are tried again, one by one) and it is replaced. Signing a round of 64
   * documents takes well under a second; without this, a lost answer would hold the round's folio ranges locked.
   */
  answerWithinMs?: number;
  /** The thread's script (tests). */
  workerUrl?: URL;
}

export function startSigningThreads(count: number, options: SigningThreadsOptions = {}): DocumentSigner {
  const answerWithinMs = options.answerWithinMs ?? 30_000;
  const workerUrl = options.workerUrl ?? WORKER_URL;
  const numbers = new KeyNumbers();
  let seq = 0;
  let closed = false;
  const threads: Array<Thread | null> = Array.from({ length: count }, () => null);

  const fail = (thread: Thread, error: Error) => {
    for (const p of thread.pending.values()) {
      clearTimeout(p.timer);
      p.reject(error);
    }
    thread.pending.clear();
    thread.inFlight = 0;
    thread.worker.terminate();
    const index = threads.indexOf(thread);
    if (index >= 0) threads[index] = null; // the next call starts a fresh one
    setImmediate(pump); // the other businesses' queued jobs go on, on a fresh thread
  };

  const start = (): Thread => {
    const worker = new BunWorkerClass(workerUrl.href, SMALL_HEAP);
    const thread: Thread = { worker, sent: new Set(), pending: new Map(), inFlight: 0 };
    worker.unref();
    worker.onmessage = ({ data: response }) => {
      const p = thread.pending.get(response.seq);
      if (p === undefined) return;
      clearTimeout(p.timer);
      thread.pending.delete(response.seq);
      thread.inFlight--;
      if (thread.pending.size === 0) worker.unref();
      p.resolve(response);
      pump(); // a place free on this thread: the next jobs in turn
    };
    worker.onerror = (event) => fail(thread, new Error(`signing thread failed: ${event.message}`));
    worker.addEventListener("close", () => fail(thread, new Error("signing thread exited")));
    return thread;
  };

  /** The thread with the fewest messages, if one can take another (a missing one is started). */
  const leastBusy = (): Thread | null => {
    let best: Thread | null = null;
    for (let i = 0; i < threads.length; i++) {
      const t = threads[i];
      if (t === undefined) continue;
      if (t === null) return (threads[i] = start());
      if (t.inFlight < MESSAGES_PER_THREAD && (best === null || t.inFlight < best.inFlight)) best = t;
    }
    return best;
  };

  /** The identity's number, sent along in `request` when the thread does not hold it yet. */
  const identityFor = (thread: Thread, request: SignRequest, identity: SigningIdentity): number => {
    const id = numbers.identity(identity);
    if (!thread.sent.has(id)) {
      request.identities.push([id, { privateKey: identity.privateKey, certificateDer: identity.certificateDer }]);
      thread.sent.add(id);
    }
    return id;
  };

  /** Adds `job` to `request`, with the CAF and identity the thread does not hold yet. */
  const addJob = (thread: Thread, request: SignRequest, job: SignedDteOptions) => {
    const caf = numbers.caf(job.caf);
    const identity = identityFor(thread, request, job.identity);
    if (!thread.sent.has(caf)) {
      request.cafs.push([caf, job.caf]);
      thread.sent.add(caf);
    }
    request.jobs.push({ input: job.input, totals: job.totals, timestamp: job.timestamp, caf, identity } satisfies WireJob);
  };

  /** Sends `request`; resolves with the thread's answer. */
  const post = (thread: Thread, request: SignRequest): Promise<SignResponse> => {
    return new Promise<SignResponse>((resolve, reject) => {
      const timer = setTimeout(() => fail(thread, new Error(`a signing thread did not answer within ${answerWithinMs} ms`)), answerWithinMs);
      thread.pending.set(request.seq, { timer, resolve, reject });
      thread.inFlight++;
      thread.worker.ref();
      try {
        thread.worker.postMessage(request);
      } catch (error) {
        // Not cloneable (a bug): forget what this message claimed to send.
        clearTimeout(timer);
        thread.pending.delete(request.seq);
        thread.inFlight--;
        for (const [id] of [...request.cafs, ...request.identities]) thread.sent.delete(id);
        if (thread.pending.size === 0) thread.worker.unref();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  };

  const queue = new FairQueue<Queued>();
  let pumpScheduled = false;

  const settleCall = (call: Call, outcome: () => void) => {
    if (call.settled) return;
    call.settled = true;
    outcome();
  };
  /** Whether a queued item is still wanted (a call failed by another thread's death is not signed further). */
  const live = (item: Queued) => item.kind === "envelope" || !item.call.settled;

  /** Sends the items of one message to `thread` and routes each answer to its call or envelope. */
  const dispatch = (thread: Thread, items: Queued[]) => {
    const request: SignRequest = { seq: ++seq, cafs: [], identities: [], jobs: [] };
    const jobs: Array<Extract<Queued, { kind: "job" }>> = [];
    let envelope: Extract<Queued, { kind: "envelope" }> | undefined;
    for (const item of items) {
      if (item.kind === "job") {
        addJob(thread, request, item.job);
        jobs.push(item);
      } else {
        envelope = item;
        request.envelope = { ...item.options, identity: identityFor(thread, request, item.options.identity) };
      }
    }
    post(thread, request).then(
      (response) => {
        response.results.forEach((r, i) => {
          const item = jobs[i];
          if (item === undefined || item.call.settled) return;
          item.call.results[item.index] = r.ok ? r : { ok: false, error: fromWireError(r.error) };
          if (--item.call.remaining === 0) settleCall(item.call, () => item.call.resolve(item.call.results));
        });
        if (envelope === undefined) return;
        const answer = response.envelope;
        if (answer === undefined) envelope.reject(new Error("a signing thread answered an envelope without it"));
        else if (answer.ok) envelope.resolve(answer.xml);
        else envelope.reject(fromWireError(answer.error));
      },
      (error: unknown) => {
        // A thread that fails fails the calls whose jobs it held, not the others.
        for (const item of jobs) settleCall(item.call, () => item.call.reject(error));
        envelope?.reject(error);
      },
    );
  };

  /**
   * Sends queued work to the threads that can take a message: up to `size` items each, one per business in turn
   * (one envelope per message). `size` spreads what is queued over all the threads, capped at
   * {@link MAX_JOBS_PER_MESSAGE}.
   */
  const pump = () => {
    if (closed) return;
    const size = Math.min(MAX_JOBS_PER_MESSAGE, Math.ceil(queue.size / count));
    while (queue.size > 0) {
      let thread: Thread | null;
      try {
        thread = leastBusy();
      } catch (error) {
        failQueued(error); // no thread could be started
        return;
      }
      if (thread === null) return; // every thread is full: the next answer pumps again
      const items: Queued[] = [];
      let envelopes = 0;
      while (items.length < size && queue.size > 0) {
        const next = queue.peek();
        if (next?.kind === "envelope" && envelopes > 0) break;
        const item = queue.take();
        if (item === undefined || !live(item)) continue;
        if (item.kind === "envelope") envelopes++;
        items.push(item);
      }
      if (items.length > 0) dispatch(thread, items);
    }
  };

  const failQueued = (error: unknown) => {
    for (const item of queue.drain()) {
      if (item.kind === "job") settleCall(item.call, () => item.call.reject(error));
      else item.reject(error);
    }
  };

  /**
   * The calls of a turn of the event loop are sent together once it ends: an emission starts signing as it joins
   * its round (`signOnArrival`), one job per call, and a message per job cost a wake-up of a thread and of the
   * server's own thread per document (bench/RESULTS.md §6, twelfth session).
   */
  const enqueue = (key: string, item: Queued) => {
    queue.push(key, item);
    if (!pumpScheduled) {
      pumpScheduled = true;
      setImmediate(() => {
        pumpScheduled = false;
        pump();
      });
    }
  };

  return {
    sign(jobs) {
      if (closed) return Promise.reject(new Error("the signing threads are closed"));
      if (jobs.length === 0) return Promise.resolve([]);
      return new Promise<SignResult[]>((resolve, reject) => {
        const call: Call = { results: new Array<SignResult>(jobs.length), remaining: jobs.length, settled: false, resolve, reject };
        jobs.forEach((job, index) => enqueue(businessOf(job.input.issuer.rut), { kind: "job", job, call, index }));
      });
    },
    signEnvelope(options: EnvelopeOptions) {
      if (closed) return Promise.reject(new Error("the signing threads are closed"));
      return new Promise<string>((resolve, reject) => enqueue(businessOf(options.rutEmisor), { kind: "envelope", options, resolve, reject }));
    },
    async close() {
      closed = true;
      failQueued(new Error("the signing threads are closed"));
      for (const t of threads) if (t) fail(t, new Error("the signing threads are closed"));
    },
  };
}

/**
 * A pool of signing threads (`signing-worker.ts`). The jobs of the calls made in one turn of the event loop travel
 * together, split over the threads, the least busy first, so one emission round signs on several cores at once and
 * the server's own thread stays free for HTTP and the database. A thread that dies fails the jobs it held (their
 * round retries them) and is replaced. Idle threads do not keep the process alive.
 */
import type { KeyObject } from "node:crypto";
import type { Caf } from "@timbre/core/caf";
import type { EnvelopeOptions, SignedDteOptions } from "@timbre/core/xml";
import type { DocumentSigner, SignResult } from "./document-signer.js";
import { fromWireError, type SignRequest, type SignResponse, type WireJob } from "./signing-wire.js";

type SigningIdentity = SignedDteOptions["identity"];

interface Pending {
  count: number;
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

/** A `sign` call waiting for the end of its turn of the event loop. */
interface QueuedCall {
  jobs: SignedDteOptions[];
  resolve: (results: SignResult[]) => void;
  reject: (error: unknown) => void;
}

interface Thread {
  worker: BunWorker;
  /** CAFs and identities this thread already holds, by number. */
  sent: Set<number>;
  pending: Map<number, Pending>;
  /** Jobs sent and not yet answered. */
  load: number;
}

const WORKER_URL = new URL("./signing-worker.ts", import.meta.url);
/**
 * `smol`: JavaScriptCore's small heap for the thread (it holds a round's jobs at a time), which keeps the server's
 * RSS under load below the capacity goal's 300 MB (bench/RESULTS.md §6).
 */
const SMALL_HEAP = { smol: true };

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
    thread.load = 0;
    thread.worker.terminate();
    const index = threads.indexOf(thread);
    if (index >= 0) threads[index] = null; // the next call starts a fresh one
  };

  const start = (): Thread => {
    const worker = new BunWorkerClass(workerUrl.href, SMALL_HEAP);
    const thread: Thread = { worker, sent: new Set(), pending: new Map(), load: 0 };
    worker.unref();
    worker.onmessage = ({ data: response }) => {
      const p = thread.pending.get(response.seq);
      if (p === undefined) return;
      clearTimeout(p.timer);
      thread.pending.delete(response.seq);
      thread.load -= p.count;
      if (thread.pending.size === 0) worker.unref();
      p.resolve(response);
    };
    worker.onerror = (event) => fail(thread, new Error(`signing thread failed: ${event.message}`));
    worker.addEventListener("close", () => fail(thread, new Error("signing thread exited")));
    return thread;
  };

  const leastBusy = (): Thread => {
    let best = -1;
    for (let i = 0; i < threads.length; i++) {
      const t = threads[i];
      if (t === undefined) continue;
      if (t === null) {
        threads[i] = start();
        return threads[i] as Thread;
      }
      const current = best < 0 ? null : threads[best];
      if (current == null || t.load < current.load) best = i;
    }
    return threads[best] as Thread;
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

  const send = (thread: Thread, jobs: SignedDteOptions[]): Promise<SignResult[]> => {
    const request: SignRequest = { seq: ++seq, cafs: [], identities: [], jobs: [] };
    for (const job of jobs) {
      const caf = numbers.caf(job.caf);
      const identity = identityFor(thread, request, job.identity);
      if (!thread.sent.has(caf)) {
        request.cafs.push([caf, job.caf]);
        thread.sent.add(caf);
      }
      request.jobs.push({ input: job.input, totals: job.totals, timestamp: job.timestamp, caf, identity } satisfies WireJob);
    }
    return post(thread, request, jobs.length).then((response) => response.results.map((r): SignResult => (r.ok ? r : { ok: false, error: fromWireError(r.error) })));
  };

  /** Sends `request` (weighing `count` jobs); resolves with the thread's answer. */
  const post = (thread: Thread, request: SignRequest, count: number): Promise<SignResponse> => {
    return new Promise<SignResponse>((resolve, reject) => {
      const timer = setTimeout(() => fail(thread, new Error(`a signing thread did not answer within ${answerWithinMs} ms`)), answerWithinMs);
      thread.pending.set(request.seq, { count, timer, resolve, reject });
      thread.load += count;
      thread.worker.ref();
      try {
        thread.worker.postMessage(request);
      } catch (error) {
        // Not cloneable (a bug): forget what this message claimed to send.
        clearTimeout(timer);
        thread.pending.delete(request.seq);
        thread.load -= count;
        for (const [id] of [...request.cafs, ...request.identities]) thread.sent.delete(id);
        if (thread.pending.size === 0) thread.worker.unref();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  };

  /**
   * The calls of this turn of the event loop, sent together once it ends (`flush`): an emission starts signing as it
   * joins its round (`signOnArrival`), one job per call, and a message per job cost a wake-up of a thread and of the
   * server's own thread per document (bench/RESULTS.md §6, twelfth session).
   */
  let queued: QueuedCall[] = [];

  /** Splits this turn's jobs over the threads, the least busy first; each call gets the results of its own jobs. */
  const flush = () => {
    const calls = queued;
    queued = [];
    const jobs = calls.flatMap((c) => c.jobs);
    const size = Math.ceil(jobs.length / Math.min(count, jobs.length));
    const parts: Array<{ start: number; end: number; results: Promise<SignResult[]> }> = [];
    try {
      if (closed) throw new Error("the signing threads are closed");
      for (let first = 0; first < jobs.length; first += size) {
        const last = Math.min(jobs.length, first + size);
        parts.push({ start: first, end: last, results: send(leastBusy(), jobs.slice(first, last)) });
      }
    } catch (error) {
      for (const call of calls) call.reject(error); // no thread could be started; parts already sent settle unread
      for (const part of parts) part.results.catch(() => {});
      return;
    }
    let start = 0;
    for (const call of calls) {
      const end = start + call.jobs.length;
      const own = parts.filter((p) => p.start < end && p.end > start);
      const from = start;
      // A thread that fails fails the calls whose jobs it held, not the others of the turn.
      Promise.all(own.map((p) => p.results.then((results) => ({ p, results })))).then(
        (answered) => call.resolve(answered.flatMap(({ p, results }) => results.slice(Math.max(0, from - p.start), Math.min(p.end, end) - p.start))),
        call.reject,
      );
      start = end;
    }
  };

  return {
    sign(jobs) {
      if (closed) return Promise.reject(new Error("the signing threads are closed"));
      if (jobs.length === 0) return Promise.resolve([]);
      return new Promise<SignResult[]>((resolve, reject) => {
        if (queued.push({ jobs, resolve, reject }) === 1) setImmediate(flush);
      });
    },
    async signEnvelope(options: EnvelopeOptions) {
      if (closed) throw new Error("the signing threads are closed");
      const thread = leastBusy();
      const request: SignRequest = { seq: ++seq, cafs: [], identities: [], jobs: [] };
      request.envelope = { ...options, identity: identityFor(thread, request, options.identity) };
      const { envelope } = await post(thread, request, 1);
      if (envelope === undefined) throw new Error("a signing thread answered an envelope without it");
      if (!envelope.ok) throw fromWireError(envelope.error);
      return envelope.xml;
    },
    async close() {
      closed = true;
      for (const t of threads) if (t) fail(t, new Error("the signing threads are closed"));
    },
  };
}

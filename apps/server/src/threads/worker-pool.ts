/**
 * CPU-heavy work off the server's thread: a few worker threads (a script that calls `serveJobs`), each running one
 * job at a time, fed from one first-come queue. What a tenant may hold (running or waiting) is bounded, and so
 * is the whole queue, so one tenant cannot fill the threads for everyone; a job past its time limit has its thread
 * terminated and replaced. Idle threads do not keep the process alive. PDFs (`pdf/`) and the verification of
 * received envelopes (`verify/`) each have a pool.
 */
import { fromWireError } from "../signing/signing-wire.js";
import type { PoolRequest, PoolResponse } from "./pool-wire.js";

export interface WorkerPool<Payload, Result> {
  /** Runs on a thread; rejects with `PoolFull` at once when the bounds are reached, `PoolTimeout` past the limit. */
  run(tenant: string, payload: Payload): Promise<Result>;
  /** Starts every thread now (the server at start), so the first jobs do not wait for a thread to load. */
  warm(): void;
  /** Stops the threads and fails what is waiting. Idempotent. */
  close(): Promise<void>;
}

/** A pool's bounds, as the configuration gives them. */
export interface PoolSettings {
  threads: number;
  /** Time one job may take on its thread before the thread is terminated. */
  timeoutMs: number;
  /** Jobs one tenant (what the caller bounds by: an account, a business) may have running or waiting at once. */
  perTenant: number;
  /** Jobs that may wait for a thread (beyond one running on each), all tenants together. */
  queueLimit: number;
  /** Another thread script than the pool's own (tests). */
  workerUrl?: URL;
}

export interface WorkerPoolOptions extends PoolSettings {
  /** What the pool does, for errors and logs ("PDF rendering"). */
  name: string;
  /** The thread's script. */
  workerUrl: URL;
}

/** Too much is already asked: of this tenant, or of the server. `retryAfterS`: when a thread is likely free. */
export class PoolFull extends Error {
  constructor(
    readonly scope: "tenant" | "server",
    readonly retryAfterS: number,
    pool: string,
  ) {
    super(scope === "tenant" ? `${pool}: this tenant already has as many jobs as it may` : `${pool}: the server has as many jobs as it can queue`);
    this.name = "PoolFull";
  }
}

export class PoolTimeout extends Error {
  constructor(
    readonly limitMs: number,
    pool: string,
  ) {
    super(`${pool}: the job did not finish within ${limitMs} ms`);
    this.name = "PoolTimeout";
  }
}

/** Bun's Web `Worker`, with the `ref`/`unref` it adds. */
interface BunWorker {
  postMessage(message: unknown): void;
  terminate(): void;
  ref(): void;
  unref(): void;
  onmessage: ((event: MessageEvent<PoolResponse<unknown>>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  addEventListener(type: "close", listener: (event: Event) => void): void;
}

const BunWorkerClass = Worker as unknown as new (url: string) => BunWorker;
/** Loading a thread's libraries takes a fraction of a second; on a starved machine, seconds. */
const START_WITHIN_MS = 60_000;

interface Job {
  seq: number;
  tenant: string;
  request: PoolRequest<unknown>;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: BunWorker;
  /** Loaded: jobs are sent only then, so a job's time limit never counts the thread's start. */
  ready: boolean;
  job: Job | null;
  timer: ReturnType<typeof setTimeout> | null;
  startedAt: number;
}

export function startWorkerPool<Payload, Result>(options: WorkerPoolOptions): WorkerPool<Payload, Result> {
  const { name, workerUrl } = options;
  const threads: Array<Thread | null> = Array.from({ length: Math.max(1, options.threads) }, () => null);
  const waiting: Job[] = [];
  /** Jobs each tenant has running or waiting. */
  const byTenant = new Map<string, number>();
  let seq = 0;
  let closed = false;
  /** Recent job time, for `Retry-After`. */
  let averageMs = 1_000;

  const release = (job: Job): void => {
    const left = (byTenant.get(job.tenant) ?? 1) - 1;
    if (left > 0) byTenant.set(job.tenant, left);
    else byTenant.delete(job.tenant);
  };

  const settle = (thread: Thread, outcome: { result: unknown } | { error: Error }): void => {
    const job = thread.job;
    if (job === null) return;
    if (thread.timer !== null) clearTimeout(thread.timer);
    thread.job = null;
    thread.timer = null;
    thread.worker.unref();
    release(job);
    if ("result" in outcome) {
      averageMs = 0.8 * averageMs + 0.2 * (performance.now() - thread.startedAt);
      job.resolve(outcome.result);
    } else job.reject(outcome.error);
  };

  /** Terminates a thread (stuck, crashed) and fails its job; its slot starts a fresh thread when next needed. */
  const discard = (thread: Thread, error: Error): void => {
    const index = threads.indexOf(thread);
    if (index < 0) return;
    threads[index] = null;
    thread.worker.terminate();
    if (thread.timer !== null) clearTimeout(thread.timer);
    settle(thread, { error });
    dispatch();
  };

  const start = (): Thread => {
    const worker = new BunWorkerClass(workerUrl.href);
    const thread: Thread = { worker, ready: false, job: null, timer: null, startedAt: 0 };
    // a thread that does not load in time is replaced, and the job that waited longest for it fails
    thread.timer = setTimeout(() => {
      const first = waiting.shift();
      if (first) {
        release(first);
        first.reject(new PoolTimeout(START_WITHIN_MS, name));
      }
      discard(thread, new Error(`${name}: thread did not start`));
    }, START_WITHIN_MS);
    worker.onmessage = ({ data: response }) => {
      if ("ready" in response) {
        if (thread.timer !== null) clearTimeout(thread.timer);
        thread.timer = null;
        thread.ready = true;
        worker.unref();
        dispatch();
        return;
      }
      if (thread.job?.seq !== response.seq) return;
      settle(thread, response.ok ? { result: response.result } : { error: fromWireError(response.error) });
      dispatch();
    };
    worker.onerror = (event) => discard(thread, new Error(`${name}: thread failed: ${event.message}`));
    worker.addEventListener("close", () => discard(thread, new Error(`${name}: thread exited`)));
    return thread;
  };

  function dispatch(): void {
    for (let i = 0; i < threads.length && waiting.length > 0 && !closed; i++) {
      let thread = threads[i] ?? null;
      if (thread?.job) continue;
      if (thread === null) threads[i] = thread = start();
      if (!thread.ready) continue;
      const job = waiting.shift() as Job;
      const running = thread;
      running.job = job;
      running.startedAt = performance.now();
      running.timer = setTimeout(() => discard(running, new PoolTimeout(options.timeoutMs, name)), options.timeoutMs);
      running.worker.ref();
      running.worker.postMessage(job.request);
    }
  }

  const running = (): number => threads.reduce((n, t) => n + (t?.job ? 1 : 0), 0);

  /** Seconds until `ahead` jobs are done on the threads, at least 1. */
  const secondsFor = (ahead: number): number => Math.max(1, Math.ceil((averageMs * Math.max(1, ahead)) / threads.length / 1000));

  return {
    run(tenant, payload) {
      if (closed) return Promise.reject(new Error(`${name}: threads closed`));
      const mine = byTenant.get(tenant) ?? 0;
      if (mine >= options.perTenant) return Promise.reject(new PoolFull("tenant", secondsFor(mine), name));
      const held = running() + waiting.length;
      if (held >= threads.length + options.queueLimit) return Promise.reject(new PoolFull("server", secondsFor(held), name));
      byTenant.set(tenant, mine + 1);
      return new Promise<Result>((resolve, reject) => {
        const n = ++seq;
        waiting.push({ seq: n, tenant, request: { seq: n, payload }, resolve: resolve as (result: unknown) => void, reject });
        dispatch();
      });
    },
    warm() {
      for (let i = 0; i < threads.length && !closed; i++) if (threads[i] === null) threads[i] = start();
    },
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) {
        release(job);
        job.reject(new Error(`${name}: threads closed`));
      }
      for (const thread of threads) if (thread) discard(thread, new Error(`${name}: threads closed`));
    },
  };
}

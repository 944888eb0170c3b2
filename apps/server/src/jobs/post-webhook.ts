/** One HTTP attempt: POST the body, success on any 2xx within the timeout; redirects are not followed (SSRF). */
import { errorMessage } from "../log.js";

export interface PostResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** The attempt was cut short by `stop` (not by the timeout). */
  aborted: boolean;
}

export async function postWebhook(options: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  stop?: AbortSignal;
}): Promise<PostResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.stop ? AbortSignal.any([timeout, options.stop]) : timeout;
  try {
    const response = await fetch(options.url, { method: "POST", headers: options.headers, body: options.body, redirect: "manual", signal });
    // The receiver's answer body is not needed; read it (bounded by the same signal) so the connection is reusable.
    await response.arrayBuffer().catch(() => undefined);
    const ok = response.status >= 200 && response.status < 300;
    return { ok, statusCode: response.status, error: ok ? null : `HTTP ${response.status}`, aborted: false };
  } catch (error) {
    if (options.stop?.aborted && !timeout.aborted) return { ok: false, statusCode: null, error: "stopped", aborted: true };
    if (timeout.aborted) return { ok: false, statusCode: null, error: `timeout after ${options.timeoutMs} ms`, aborted: false };
    return { ok: false, statusCode: null, error: errorMessage(error), aborted: false };
  }
}

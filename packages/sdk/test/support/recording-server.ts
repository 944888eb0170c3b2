/**
 * A loopback HTTP server for transport tests: real sockets, real fetch, and a log of every request
 * it received. Each test scripts the answers.
 */
import { createServer, type Server as NetServer, type Socket } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: string;
  form?: FormData;
}

export type Handler = (request: RecordedRequest, index: number) => Response | Promise<Response>;

export interface RecordingServer {
  /** Base URL including `/v1`. */
  baseUrl: string;
  requests: RecordedRequest[];
  stop(): Promise<void>;
}

/** Starts a Bun.serve on a random loopback port answering with `handler`. */
export function startRecordingServer(handler: Handler): RecordingServer {
  const requests: RecordedRequest[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const contentType = request.headers.get("content-type") ?? "";
      const recorded: RecordedRequest = {
        method: request.method,
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body: "",
      };
      if (contentType.startsWith("multipart/form-data")) recorded.form = await request.formData();
      else recorded.body = await request.text();
      requests.push(recorded);
      return handler(recorded, requests.length - 1);
    },
  });
  return {
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    requests,
    stop: async () => {
      await server.stop(true);
    },
  };
}

/** A JSON envelope response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "request-id": "req_test", ...headers },
  });
}

export const ok = (data: unknown, extra: Record<string, unknown> = {}, status = 200) =>
  json(status, { success: true, data, ...extra });

export const fail = (status: number, code: string, details?: Record<string, unknown>, headers?: Record<string, string>) =>
  json(status, { success: false, error: { code, message: `${code} happened`, details, request_id: "req_err" } }, headers);

/**
 * A raw TCP server that drops the first `dropFirst` connections without answering (a network error
 * for the client), then answers every request with a fixed JSON body.
 */
export async function startFlakySocketServer(dropFirst: number, body: unknown) {
  let connections = 0;
  const server: NetServer = createServer((socket: Socket) => {
    connections += 1;
    if (connections <= dropFirst) {
      socket.destroy();
      return;
    }
    let buffer = "";
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1");
      if (!buffer.includes("\r\n\r\n")) return;
      const payload = JSON.stringify(body);
      socket.end(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    connections: () => connections,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port on which nothing listens (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A loopback TCP proxy in front of the real server that, for its first `drop` connections, forwards the request,
 * waits until the server has begun answering (so the server did the work) and then cuts the client's connection
 * without passing the answer on: the client sees a dropped connection after the server acted. Later connections are
 * piped both ways. It records each request's `Idempotency-Key`.
 */
import { connect, createServer, type Socket } from "node:net";

export interface DroppingProxy {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  /** The `Idempotency-Key` of each request seen (null when it had none), in order. */
  idempotencyKeys: Array<string | null>;
  close(): Promise<void>;
}

const KEY = /^idempotency-key:\s*(.+)$/im;

export async function startDroppingProxy(target: { host: string; port: number }, drop: number): Promise<DroppingProxy> {
  const idempotencyKeys: Array<string | null> = [];
  const sockets = new Set<Socket>();
  let toDrop = drop;
  const server = createServer((client) => {
    sockets.add(client);
    const upstream = connect(target.port, target.host);
    sockets.add(upstream);
    const dropping = toDrop-- > 0;
    let head = "";
    client.on("data", (chunk: Buffer) => {
      if (!head.includes("\r\n\r\n")) {
        head += chunk.toString("latin1");
        if (head.includes("\r\n\r\n")) idempotencyKeys.push(KEY.exec(head.slice(0, head.indexOf("\r\n\r\n")))?.[1]?.trim() ?? null);
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (dropping) {
        client.destroy();
        upstream.destroy();
      } else {
        client.write(chunk);
      }
    });
    const end = () => (client.destroy(), upstream.destroy());
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    idempotencyKeys,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

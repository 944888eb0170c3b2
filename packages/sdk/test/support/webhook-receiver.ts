/** A loopback HTTP endpoint that records every webhook delivery (raw body and headers) and answers 204. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hooks` */
  url: string;
  deliveries: Array<{ body: string; headers: Headers }>;
  stop(): void;
}

export function startWebhookReceiver(): WebhookReceiver {
  const deliveries: WebhookReceiver["deliveries"] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      deliveries.push({ body: await request.text(), headers: request.headers });
      return new Response(null, { status: 204 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/hooks`, deliveries, stop: () => void server.stop(true) };
}

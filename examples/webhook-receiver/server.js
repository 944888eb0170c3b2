// Receives Timbre webhooks, verifies their Standard Webhooks signature with the SDK, and handles them.
// Run: TIMBRE_WEBHOOK_SECRET=whsec_… PORT=4000 node server.js   (or: bun server.js)
import { createServer } from "node:http";
import { webhooks, WebhookVerificationError } from "@timbre/sdk";

const secret = process.env.TIMBRE_WEBHOOK_SECRET;
if (!secret) {
  console.error("Set TIMBRE_WEBHOOK_SECRET (the whsec_… shown when you set the business's webhook_url).");
  process.exit(1);
}
const seen = new Set(); // deliveries are at-least-once: ignore repeats by webhook-id (use a database in production)

/** @param {import("@timbre/sdk").WebhookEvent} event */
function handle(event) {
  switch (event.event) {
    case "dte.status_changed": {
      const { tipo, folio, old_status, new_status } = event.data;
      console.log(`DTE ${tipo} N° ${folio}: ${old_status ?? "—"} → ${new_status}`);
      break;
    }
    case "dte.acceptance_changed": {
      // The receiver's answer in the SII's registry: RECLAMADO means the customer claimed the factura (annul it
      // with a credit note, and do not expect payment); ACEPTADO / ACEPTADO_TACITO mean it stands.
      const { tipo, folio, new_status, eventos } = event.data;
      console.log(`DTE ${tipo} N° ${folio}: receptor ${new_status}${eventos.length ? ` (${eventos.map((e) => e.codigo).join(", ")})` : ""}`);
      break;
    }
    default:
      console.log(`${event.event} (${event.id})`);
  }
}

const server = createServer(async (req, res) => {
  if (req.method !== "POST" || req.url !== "/hook") {
    res.writeHead(404).end();
    return;
  }
  // Verify the raw bytes exactly as received: re-serialised JSON would not match the signature.
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const rawBody = Buffer.concat(chunks);
  try {
    const event = await webhooks.verify(new Uint8Array(rawBody), req.headers, secret);
    if (!seen.has(event.id)) {
      seen.add(event.id);
      handle(event);
    }
    res.writeHead(204).end(); // answer 2xx fast (within 10 s); do slow work after answering
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    console.warn(`Rejected delivery: ${error.message}`);
    res.writeHead(400, { "content-type": "text/plain" }).end(error.message);
  }
});

server.listen(Number(process.env.PORT ?? 4000), "127.0.0.1", () => {
  const address = server.address();
  console.log(`Listening on http://127.0.0.1:${typeof address === "object" && address ? address.port : "?"}/hook`);
});

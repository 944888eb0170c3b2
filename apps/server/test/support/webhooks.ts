/** Loopback webhook receivers and seeded documents/events for the jobs and events tests. */
import { eq } from "drizzle-orm";
import { documents, type DocumentRow, type DocumentState } from "../../src/db/documents.js";
import { events, webhookDeliveries } from "../../src/db/events.js";
import { numerations } from "../../src/db/numerations.js";
import { newId } from "../../src/ids.js";
import { changeDocumentState } from "../../src/modules/dte/change-state.js";
import type { Harness } from "./harness.js";

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `n` requests arrived (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export function startReceiver(answer: (r: Received, index: number) => Response | Promise<Response> = () => new Response("ok")): Receiver {
  const received: Received[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 60,
    async fetch(request) {
      const r = { headers: Object.fromEntries(request.headers.entries()), body: await request.text(), at: Date.now() };
      received.push(r);
      return answer(r, received.length - 1);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hooks/timbre`,
    received,
    async waitFor(n, timeoutMs = 5_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} requests, got ${received.length}`);
        await Bun.sleep(10);
      }
    },
    stop: () => server.stop(true),
  };
}

/** A numeration + document row in `estado` (no real CAF: the workers never read it). */
export async function seedDocument(h: Harness, businessId: string, options: { estado?: DocumentState; folio?: number; environment?: "test" | "live" } = {}): Promise<DocumentRow> {
  const environment = options.environment ?? "test";
  const folio = options.folio ?? 1;
  const numerationId = newId("numeration");
  await h.deps.db.insert(numerations).values({
    id: numerationId, businessId, environment, tipo: 33, desde: folio, hasta: folio + 99, siguiente: folio + 1,
    fechaAutorizacion: "2026-01-05", venceEl: null, idk: 100, cafXml: "<CAF/>", cafFileEnc: "x",
  });
  const now = new Date();
  const [row] = await h.deps.db
    .insert(documents)
    .values({
      id: newId("document"), businessId, environment, numerationId, tipo: 33, folio, fecha: "2026-01-06", fechaEmision: now,
      receptorRut: "60803000-K", receptorRazonSocial: "SII", montoNeto: 1000, montoExento: 0, montoIva: 190, montoTotal: 1190,
      estado: options.estado ?? "PENDIENTE", request: {}, computed: {}, xml: new Uint8Array([60, 47, 62]), ted: "<TED/>",
    })
    .returning();
  if (!row) throw new Error("no document");
  return row;
}

/** Moves a seeded document through `changeDocumentState` (the real event + first delivery). */
export async function changeState(h: Harness, doc: DocumentRow, to: DocumentState): Promise<DocumentRow> {
  await h.deps.db.transaction((tx) => changeDocumentState(tx, { document: doc, to, at: new Date() }));
  const [row] = await h.deps.db.select().from(documents).where(eq(documents.id, doc.id));
  if (!row) throw new Error("document vanished");
  return row;
}

export async function deliveriesOfEvent(h: Harness, eventId: string) {
  return h.deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId)).orderBy(webhookDeliveries.attempt);
}

export async function eventIdsOf(h: Harness, businessId: string): Promise<string[]> {
  const rows = await h.deps.db.select({ id: events.id }).from(events).where(eq(events.businessId, businessId));
  return rows.map((r) => r.id);
}

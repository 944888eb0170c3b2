// The IMAP door (API.md §12 door 3) against a real dovecot on loopback (test/support/dovecot.ts): business B's
// envelope in A's own mailbox becomes A's received document, once, whatever a person did to the message and whatever
// the server did to UIDVALIDITY; failures show as `intercambio.imap.error`; the password is never shown or logged.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Server, type Socket } from "node:net";
import { and, eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import { businesses } from "../db/businesses.js";
import { receivedDocuments } from "../db/received.js";
import { refreshDocumentStatus } from "../dispatch/refresh-document-status.js";
import { freePort } from "../../test/support/free-port.js";
import { DOVECOT, startDovecot, type Dovecot } from "../../test/support/dovecot.js";
import { createHarness, describeDrivers, type Harness } from "../../test/support/harness.js";
import { emitBody, emitter, RECEPTOR } from "../../test/support/emission.js";
import { outboxOf } from "../../test/support/exchange.js";
import { tenant } from "../../test/support/fixtures.js";
import { startWorkers } from "../jobs/start-workers.js";
import { createMailboxWorker, type MailboxWorkerOptions } from "./mailbox-worker.js";
import { receiverEnvelopeOf } from "./receiver-envelope.js";

const A_RUT = "77777777-7";
const B_RUT = "76192083-9";

const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });

/** A raw RFC 5322 message, as a supplier's mail program writes it. */
async function message(subject: string, attachments: Array<{ filename: string; content: Buffer; contentType: string }>): Promise<Buffer> {
  const info = await composer.sendMail({ from: "facturacion@proveedor.example", to: "facturas@empresa-a.example", subject, text: "Se adjunta", attachments });
  return info.message as Buffer;
}

if (!DOVECOT) {
  describe("IMAP door (API.md §12 door 3)", () => {
    test("needs dovecot (apt-get install -y dovecot-imapd)", () => {
      console.warn("SKIPPED: the IMAP door suite needs Debian's dovecot-imapd (/usr/sbin/dovecot); .ci/run installs it");
      if (process.env.CI) throw new Error("dovecot-imapd is missing in CI: .ci/run installs it");
    });
  });
} else {
  describeDrivers("IMAP door (API.md §12 door 3)", (driver) => {
    let h: Harness;
    let dovecot: Dovecot;
    let a: Awaited<ReturnType<typeof emitter>>;
    let b: Awaited<ReturnType<typeof emitter>>;
    beforeAll(async () => {
      dovecot = await startDovecot();
      h = await createHarness(driver, { SII_MODE: "sandbox", SII_SANDBOX_STEP_MS: "0", WEBHOOK_ALLOW_PRIVATE: "true", INBOUND_DOMAIN: "in.timbre.test" });
      b = await emitter(h, { rut: B_RUT, tipos: [33] });
      a = await emitter(h, { rut: A_RUT, tipos: [] });
    }, 60_000);
    afterAll(async () => {
      await h?.close();
      await dovecot?.stop();
    });

    const url = (password = dovecot.password, port = dovecot.port, folder = "INBOX") => `imap://${dovecot.user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${folder}`;
    const setMailbox = async (key: string, businessId: string, imapUrl: string | null) => {
      const res = await h.call("PUT", `/v1/businesses/${businessId}`, { key, body: { intercambio: { imap_url: imapUrl } } });
      expect(res.status).toBe(200);
      return res.json.data;
    };
    /** Every due mailbox polled once (`everyMs: 0`: each is due again right after). */
    const pollAll = async (options: MailboxWorkerOptions = {}) => {
      const worker = createMailboxWorker(h.deps, { everyMs: 0, ...options });
      await worker.tick();
      await worker.idle();
    };
    const issuedToA = async () => {
      const res = await h.call("POST", "/v1/dte/emit", { key: b.key.key, body: emitBody(33, { receptor: { ...RECEPTOR, rut: A_RUT, razon_social: "Compradora A SpA" } }) });
      expect(res.status).toBe(201);
      expect((await refreshDocumentStatus(h.deps, res.json.data.id))?.estado).toBe("ACEPTADO");
      const folio = res.json.data.folio as number;
      const envelope = await receiverEnvelopeOf(h.deps, res.json.data.id);
      return { folio, raw: await message(`Factura ${folio}`, [{ filename: `dte_${B_RUT}_T33F${folio}.xml`, content: Buffer.from(envelope, "latin1"), contentType: "application/xml" }]) };
    };
    const keptOf = async (folio: number) => h.deps.db.select().from(receivedDocuments).where(and(eq(receivedDocuments.businessId, a.business.id), eq(receivedDocuments.folio, folio), eq(receivedDocuments.emisorRut, B_RUT)));
    const mailboxOf = async (key: string, id: string) => (await h.call("GET", `/v1/businesses/${id}`, { key })).json.data.intercambio.imap;

    test("an EnvioDTE appended to A's mailbox becomes A's verified received document; a second poll imports nothing new", async () => {
      const shown = await setMailbox(a.key.key, a.business.id, url());
      expect(shown.intercambio.imap).toEqual({ host: "127.0.0.1", user: dovecot.user, ultimo_chequeo_at: null, error: null });
      const { folio, raw } = await issuedToA();
      const uid = await dovecot.append(raw);
      await pollAll();
      expect((await dovecot.flags()).get(uid)).toEqual([]); // read without marking it \Seen
      const list = await h.call("GET", `/v1/received?emisor_rut=${B_RUT}`, { key: a.key.key });
      expect(list.json.data.find((d: { folio: number }) => d.folio === folio)).toMatchObject({ estado: "SIN_RESPUESTA", verificacion: { firma: "ok", timbre: "ok", caf: "ok", receptor: "ok" } });
      const imap = await mailboxOf(a.key.key, a.business.id);
      expect(imap.error).toBeNull();
      expect(Date.parse(imap.ultimo_chequeo_at)).toBeGreaterThan(0);

      const inboxBefore = (await h.call("GET", "/v1/received/inbox", { key: a.key.key })).json.data.length;
      await pollAll();
      expect(await keptOf(folio)).toHaveLength(1);
      expect((await h.call("GET", "/v1/received/inbox", { key: a.key.key })).json.data.length).toBe(inboxBefore);
      expect((await mailboxOf(a.key.key, a.business.id)).ultimo_chequeo_at).not.toBe(imap.ultimo_chequeo_at);
    }, 60_000);

    test("a message a person already read (\\Seen) is imported, once", async () => {
      const { folio, raw } = await issuedToA();
      const uid = await dovecot.append(raw, { flags: ["\\Seen", "\\Flagged"] });
      await pollAll();
      expect((await dovecot.flags()).get(uid)).toEqual(["\\Flagged", "\\Seen"]);
      await pollAll();
      const kept = await keptOf(folio);
      expect(kept).toHaveLength(1);
      expect(kept[0]?.verified).toBe(true);
    }, 60_000);

    test("a new UIDVALIDITY restarts from the top without keeping a verified document twice", async () => {
      const [before] = await h.deps.db.select().from(businesses).where(eq(businesses.id, a.business.id));
      expect(before?.imapLastUid).toBeGreaterThanOrEqual(2);
      const oldFolios = (await h.deps.db.select().from(receivedDocuments).where(eq(receivedDocuments.businessId, a.business.id))).map((r) => r.folio);
      const acuses = async () => (await outboxOf(h, a.business.id, "acuse")).length;
      const acusesBefore = await acuses();
      const fresh = (before?.imapUidValidity ?? 0) + 1000;
      dovecot.setUidValidity(fresh);
      const { folio, raw } = await issuedToA();
      await dovecot.append(raw);
      await pollAll();
      const [after] = await h.deps.db.select().from(businesses).where(eq(businesses.id, a.business.id));
      expect(after).toMatchObject({ imapUidValidity: fresh, imapError: null });
      expect(after?.imapLastUid).toBe((before?.imapLastUid ?? 0) + 1);
      for (const old of oldFolios) expect((await keptOf(old)).filter((r) => r.verified)).toHaveLength(1);
      expect(await keptOf(folio)).toHaveLength(1);
      // Every message was fed again from the top (each import answers its envelope, repeats included).
      expect(await acuses()).toBe(acusesBefore + oldFolios.length + 1);
    }, 60_000);

    test("bounds: at most maxMessages a poll (the rest at once after), an oversized message skipped with an inbox entry", async () => {
      const first = await issuedToA();
      await dovecot.append(await message("Adjunto enorme", [{ filename: "scan.pdf", content: Buffer.alloc(300_000, 7), contentType: "application/pdf" }]));
      await dovecot.append(first.raw);
      const second = await issuedToA();
      await dovecot.append(second.raw);
      const options = { maxMessages: 2, messageLimit: 200_000 };
      await pollAll(options);
      expect(await keptOf(first.folio)).toHaveLength(1);
      expect(await keptOf(second.folio)).toHaveLength(0);
      const inbox = (await h.call("GET", "/v1/received/inbox", { key: a.key.key })).json.data;
      expect(inbox.find((i: { subject: string }) => i.subject === "Adjunto enorme")).toMatchObject({ source: "imap", reason: "too_large" });
      const [row] = await h.deps.db.select().from(businesses).where(eq(businesses.id, a.business.id));
      expect(row?.imapNextCheckAt?.getTime()).toBeLessThanOrEqual(Date.now()); // due again at once
      await pollAll(options);
      expect(await keptOf(second.folio)).toHaveLength(1);
    }, 60_000);

    test("failures show as intercambio.imap.error: auth, unreachable, mailbox, tls; a working poll clears them", async () => {
      const c = await tenant(h, "60803000-K");
      const wrongPassword = "not-the-password-42";
      await setMailbox(c.key.key, c.business.id, url(wrongPassword));
      await pollAll();
      expect((await mailboxOf(c.key.key, c.business.id)).error).toBe("auth");
      await setMailbox(c.key.key, c.business.id, url(dovecot.password, await freePort()));
      await pollAll();
      expect((await mailboxOf(c.key.key, c.business.id)).error).toBe("unreachable");
      await setMailbox(c.key.key, c.business.id, url(dovecot.password, dovecot.port, "NoSuchFolder"));
      await pollAll();
      expect((await mailboxOf(c.key.key, c.business.id)).error).toBe("mailbox");
      // IMAPS with a certificate nobody vouches for is refused; trusting its issuer, it works.
      await setMailbox(c.key.key, c.business.id, `imaps://${dovecot.user}:${dovecot.password}@127.0.0.1:${dovecot.tlsPort}/INBOX`);
      await pollAll();
      expect((await mailboxOf(c.key.key, c.business.id)).error).toBe("tls");
      await pollAll({ tls: { ca: dovecot.cert } });
      const imap = await mailboxOf(c.key.key, c.business.id);
      expect(imap).toMatchObject({ host: "127.0.0.1", user: dovecot.user, error: null });
      // C reads the same mailbox as A: it found B's envelopes, addressed to A, and kept none of them.
      expect((await h.call("GET", "/v1/received", { key: c.key.key })).json.data).toEqual([]);

      const everything = [...h.bodies, ...h.logs].join("\n");
      expect(everything.includes(dovecot.password) ? "password shown or logged" : null).toBeNull();
      expect(everything.includes(wrongPassword) ? "wrong password shown or logged" : null).toBeNull();
    }, 60_000);

    test("a server that never answers holds only its own poll: the other businesses' polls finish meanwhile", async () => {
      const sockets = new Set<Socket>();
      const silent: Server = createServer((s) => void sockets.add(s));
      const port = await freePort();
      await new Promise<void>((r) => silent.listen(port, "127.0.0.1", () => r()));
      const d = await tenant(h, "60803000-K");
      await setMailbox(d.key.key, d.business.id, url(dovecot.password, port));
      const { folio, raw } = await issuedToA();
      await dovecot.append(raw);
      await h.deps.db.update(businesses).set({ imapNextCheckAt: new Date(0) }).where(eq(businesses.id, d.business.id)); // D first in line
      const worker = createMailboxWorker(h.deps, { everyMs: 0, connectTimeoutMs: 60_000, deadlineMs: 60_000 });
      try {
        await worker.tick();
        for (let i = 0; i < 400 && (await keptOf(folio)).length === 0; i++) await Bun.sleep(50);
        expect(await keptOf(folio)).toHaveLength(1);
        expect(sockets.size).toBe(1); // D's poll is connected and waiting for a greeting
        expect((await mailboxOf(d.key.key, d.business.id)).ultimo_chequeo_at).toBeNull();
      } finally {
        await worker.stop();
        for (const s of sockets) s.destroy();
        silent.close();
      }
      // Stopped mid-poll, D's mailbox is due again at once and records nothing.
      const [row] = await h.deps.db.select().from(businesses).where(eq(businesses.id, d.business.id));
      expect(row?.imapCheckedAt).toBeNull();
      expect(row?.imapNextCheckAt?.getTime()).toBeLessThanOrEqual(Date.now());
    }, 60_000);

    test("the pg-boss worker polls by itself: an appended message arrives with nobody calling it", async () => {
      const workers = await startWorkers(h.deps, h.database.jobStore, { only: ["imap"], intervalsMs: { imap: 200 }, imap: { everyMs: 0 } });
      try {
        const { folio, raw } = await issuedToA();
        await dovecot.append(raw);
        for (let i = 0; i < 300 && (await keptOf(folio)).length === 0; i++) await Bun.sleep(100);
        expect(await keptOf(folio)).toHaveLength(1);
      } finally {
        await workers.stop();
      }
    }, 60_000);

    test("null removes the mailbox; it is no longer polled", async () => {
      const shown = await setMailbox(a.key.key, a.business.id, null);
      expect(shown.intercambio.imap).toBeNull();
      const [row] = await h.deps.db.select().from(businesses).where(eq(businesses.id, a.business.id));
      expect(row).toMatchObject({ imapUrlEnc: null, imapNextCheckAt: null, imapLastUid: null });
    });
  });
}

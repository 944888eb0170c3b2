// `intercambio.imap_url` on PUT /businesses/{id} (API.md §12 door 3): checked like webhook targets, sealed at rest,
// never returned; the business shows `intercambio.imap`. The polling itself is src/intercambio/imap-door.test.ts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { businesses } from "../../db/businesses.js";
import { decryptSecretText } from "../../secrets.js";
import { describeDrivers, createHarness, type Harness } from "../../../test/support/harness.js";
import { expectError, tenant } from "../../../test/support/fixtures.js";

const PASSWORD = "correo-clave-9931";

describeDrivers("business mailbox (intercambio.imap_url)", (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  }, 60_000);
  afterAll(() => h.close(), 60_000);

  const put = (key: string, id: string, body: unknown) => h.call("PUT", `/v1/businesses/${id}`, { key, body });
  const rowOf = async (id: string) => (await h.deps.db.select().from(businesses).where(eq(businesses.id, id)))[0]!;

  test("a public mailbox is sealed, shown as host and user only, and due for a poll; null removes it", async () => {
    const t = await tenant(h);
    const imapUrl = `imaps://facturas%40empresa.cl:${PASSWORD}@Imap.Empresa.example:993/INBOX`;
    const res = await put(t.key.key, t.business.id, { intercambio: { imap_url: imapUrl } });
    expect(res.status).toBe(200);
    expect(res.json.data.intercambio).toEqual({ email: expect.any(String), imap: { host: "imap.empresa.example", user: "facturas@empresa.cl", ultimo_chequeo_at: null, error: null } });
    expect(res.text).not.toContain(PASSWORD);
    const row = await rowOf(t.business.id);
    expect(row.imapUrlEnc).not.toContain(PASSWORD);
    expect(decryptSecretText(h.deps.secrets.masterKey, row.imapUrlEnc!)).toBe(imapUrl);
    expect(row.imapNextCheckAt?.getTime()).toBeLessThanOrEqual(Date.now());
    const read = await h.call("GET", `/v1/businesses/${t.business.id}`, { key: t.key.key });
    expect(read.json.data.intercambio.imap.host).toBe("imap.empresa.example");
    expect(read.text).not.toContain(PASSWORD);
    // other fields leave the mailbox alone
    expect((await put(t.key.key, t.business.id, { giro: "Otro giro" })).json.data.intercambio.imap).not.toBeNull();
    const removed = await put(t.key.key, t.business.id, { intercambio: { imap_url: null } });
    expect(removed.json.data.intercambio.imap).toBeNull();
    expect(await rowOf(t.business.id)).toMatchObject({ imapUrlEnc: null, imapHost: null, imapUser: null, imapNextCheckAt: null });
  });

  test("refused: private, loopback and link-local servers (not_allowed), other schemes and URLs without credentials (format)", async () => {
    const t = await tenant(h);
    const cases: Array<[string, string]> = [
      [`imaps://u:${PASSWORD}@127.0.0.1:993/INBOX`, "not_allowed"],
      [`imap://u:${PASSWORD}@localhost/INBOX`, "not_allowed"],
      [`imaps://u:${PASSWORD}@10.1.2.3/INBOX`, "not_allowed"],
      [`imaps://u:${PASSWORD}@[fe80::1]/INBOX`, "not_allowed"],
      [`imaps://u:${PASSWORD}@169.254.169.254/INBOX`, "not_allowed"],
      [`https://u:${PASSWORD}@imap.example.com/INBOX`, "format"],
      ["imaps://imap.example.com/INBOX", "format"],
      [`imaps://u:${PASSWORD}@imap.example.com/INBOX?x=1`, "format"],
      [`imaps://u:${PASSWORD}@imap.example.com:99999/INBOX`, "format"],
      ["not a url", "format"],
    ];
    for (const [imapUrl, reason] of cases) {
      const res = await put(t.key.key, t.business.id, { intercambio: { imap_url: imapUrl } });
      expectError(res, 422, "VALIDATION_ERROR");
      expect([imapUrl, res.json.error.details.field, res.json.error.details.reason]).toEqual([imapUrl, "intercambio.imap_url", reason]);
      expect(res.text.includes(PASSWORD) ? `password echoed for ${imapUrl}` : null).toBeNull();
    }
    const typed = await put(t.key.key, t.business.id, { intercambio: { imap_url: 42 } });
    expect(typed.json.error.details).toMatchObject({ field: "intercambio.imap_url", reason: "type" });
    const readOnly = await put(t.key.key, t.business.id, { intercambio: { email: "x@example.com", imap: null, carpeta: "INBOX" } });
    const reasons = readOnly.json.error.details.errors.map((e: { field: string; reason: string }) => `${e.field}:${e.reason}`).sort();
    expect(reasons).toEqual(["intercambio.carpeta:unknown", "intercambio.email:not_allowed", "intercambio.imap:not_allowed"]);
    expect((await rowOf(t.business.id)).imapUrlEnc).toBeNull();
  });

  test("a new password keeps the poll's place; another server, user or folder starts from the top", async () => {
    const t = await tenant(h);
    await put(t.key.key, t.business.id, { intercambio: { imap_url: "imaps://ana:uno@imap.example.com/INBOX" } });
    await h.deps.db.update(businesses).set({ imapUidValidity: 7, imapLastUid: 40, imapError: "auth" }).where(eq(businesses.id, t.business.id));
    await put(t.key.key, t.business.id, { intercambio: { imap_url: "imaps://ana:dos@imap.example.com:993/INBOX" } });
    expect(await rowOf(t.business.id)).toMatchObject({ imapUidValidity: 7, imapLastUid: 40, imapError: null });
    await put(t.key.key, t.business.id, { intercambio: { imap_url: "imaps://ana:dos@imap.example.com/Facturas" } });
    expect(await rowOf(t.business.id)).toMatchObject({ imapUidValidity: null, imapLastUid: null, imapError: null });
  });
});

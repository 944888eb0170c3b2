import { afterAll, beforeAll, expect, test } from "bun:test";
import { isValidRut } from "@timbre/core/rut";
import { createHarness, describeDrivers, type Harness } from "../test/support/harness.js";
import { ensureSandboxAccount, exampleInvoice, FIRST_RUN_FOLIOS, sandboxBanner, type SandboxAccount } from "./first-run.js";

describeDrivers("first run", (driver) => {
  let h: Harness;
  let account: SandboxAccount | null;
  beforeAll(async () => {
    h = await createHarness(driver, { SII_MODE: "sandbox" });
    account = await ensureSandboxAccount(h.deps);
  }, 60_000);
  afterAll(async () => h?.close());

  test("creates the account once, with sandbox CAFs for every tipo it issues (33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112)", async () => {
    if (!account) throw new Error("expected a new account");
    expect(await ensureSandboxAccount(h.deps)).toBeNull();
    expect(account.cafTipos).toEqual([33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112]);
    const res = await h.call("GET", `/v1/businesses/${account.businessId}/numerations`, { key: account.apiKey });
    expect(res.status).toBe(200);
    const byTipo = res.json.data.map((n: { tipo: number; desde: number; hasta: number; estado: string; environment: string }) => [n.tipo, n.desde, n.hasta, n.estado, n.environment]);
    expect(byTipo.sort((a: number[], b: number[]) => Number(a[0]) - Number(b[0]))).toEqual(
      [33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112].map((tipo) => [tipo, 1, FIRST_RUN_FOLIOS, "activa", "test"]),
    );
  });

  test("the banner prints the key and a ready-to-paste curl emitting a complete, valid 33", () => {
    if (!account) throw new Error("expected a new account");
    const banner = sandboxBanner(account, 3000);
    expect(banner).toContain(account.apiKey);
    expect(banner).toContain("curl -X POST http://localhost:3000/v1/dte/emit");
    expect(banner).toContain(`-H "X-API-Key: ${account.apiKey}"`);
    const body = /-d '([^']*)'/.exec(banner)?.[1];
    if (body === undefined) throw new Error("no -d '…' in the banner");
    const invoice = JSON.parse(body);
    expect(invoice).toEqual(exampleInvoice());
    expect(invoice.tipo).toBe(33);
    for (const field of ["rut", "razon_social", "giro", "direccion", "comuna"]) expect(typeof invoice.receptor[field]).toBe("string");
    expect(isValidRut(invoice.receptor.rut)).toBe(true);
    expect(invoice.items).toHaveLength(2);
    for (const item of invoice.items) {
      expect(item.nombre.length).toBeGreaterThan(0);
      expect(item.cantidad).toBeGreaterThan(0);
      expect(item.precio).toBeGreaterThanOrEqual(0);
    }
    // every line but the last of the curl ends with a shell continuation
    const curl = banner.split("\n").filter((line) => /^\s+(curl|-H|-d)/.test(line));
    expect(curl.slice(0, -1).every((line) => line.endsWith(" \\"))).toBe(true);
  });
});

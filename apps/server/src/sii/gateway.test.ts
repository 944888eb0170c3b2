import { afterAll, describe, expect, test } from "bun:test";
import { parseCaf, verifyCaf } from "@timbre/core/caf";
import { generateTestCertificate } from "@timbre/core/testing";
import { createHarness, drivers, type Harness } from "../../test/support/harness.js";

for (const driver of drivers) {
  describe(`SII gateway (${driver})`, () => {
    let h: Harness;
    afterAll(async () => h?.close());

    test("sandbox mode: one authority per database, trusted for test only, serving the SII over loopback HTTP", async () => {
      h = await createHarness(driver, { SII_MODE: "sandbox" });
      const gateway = await h.deps.sii();
      expect(await h.deps.sii()).toBe(gateway);
      expect(gateway.backend("test")).toBe("sandbox");
      expect(gateway.backend("live")).toBeNull();
      const sandbox = gateway.sandbox;
      if (!sandbox) throw new Error("expected an in-process sandbox");
      const { xml } = sandbox.issueCaf({ rut: "76192083-9", tipo: 33, desde: 1, hasta: 10 });
      const caf = parseCaf(xml);
      expect(() => verifyCaf(caf, gateway.authorities("test"))).not.toThrow();
      expect(() => verifyCaf(caf, gateway.authorities("live"))).toThrow();
      // the same database gives the same authority to a second process (simulated by reopening the gateway)
      const idk = gateway.sandboxAuthority?.idk;
      const pem = gateway.sandboxAuthority?.publicKey.export({ type: "spki", format: "pem" });
      await h.deps.close();
      const again = await h.deps.sii();
      expect(again).not.toBe(gateway);
      expect(again.sandboxAuthority?.idk).toBe(idk);
      expect(again.sandboxAuthority?.publicKey.export({ type: "spki", format: "pem" })).toEqual(pem);
      // a client built by the gateway authenticates against the sandbox over HTTP
      const cert = await generateTestCertificate({ rut: "11111111-1", name: "Ana Pérez", password: "x", validFrom: new Date("2026-01-01T00:00:00Z"), validTo: new Date("2028-01-01T00:00:00Z") });
      const client = again.client("test", { privateKey: cert.privateKey, certificateDer: cert.certificateDer, holderRut: "11111111-1" }, "fp");
      expect(again.client("test", { privateKey: cert.privateKey, certificateDer: cert.certificateDer, holderRut: "11111111-1" }, "fp")).toBe(client);
      expect(await client.getToken()).toMatch(/^\S{6,}$/);
    }, 60_000);
  });
}

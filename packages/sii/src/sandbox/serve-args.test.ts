import { describe, expect, test } from "bun:test";
import { generateAuthorityKey } from "@timbre/core/testing";
import { issueCaf, verifyCafSignature, parseEmbeddedCaf } from "@timbre/core/caf";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseServeArgs } from "./serve-args.js";

const authority = generateAuthorityKey(9999);
const pem = authority.publicKey.export({ type: "spki", format: "pem" }).toString();

describe("parseServeArgs", () => {
  test("defaults", () => {
    expect(parseServeArgs([])).toEqual({ port: 4040, host: "127.0.0.1", stepMs: 1000, idk: 9999, trusted: [], xsd: "auto", crossCheck: "on", stateFile: null, environment: "certificacion" });
    expect(parseServeArgs(["--environment", "produccion"]).environment).toBe("produccion");
    expect(parseServeArgs(["--state", "/var/lib/sii-sandbox.jsonl"]).stateFile).toBe("/var/lib/sii-sandbox.jsonl");
  });

  test("--trust-pem reads an authority key that verifies that authority's CAFs; --trust-idk applies to the next file", () => {
    const files: Record<string, string> = { "/a.pem": pem, "/b.pem": pem };
    const options = parseServeArgs(["--port", "0", "--step-ms", "0", "--trust-pem", "/a.pem", "--trust-idk", "100", "--trust-pem", "/b.pem", "--xsd", "off"], (p) => files[p] ?? "");
    expect(options.trusted.map((a) => a.idk)).toEqual([9999, 100]);
    expect({ port: options.port, stepMs: options.stepMs, xsd: options.xsd }).toEqual({ port: 0, stepMs: 0, xsd: "off" });
    const { xml } = issueCaf({ authority, rut: "76192083-9", razonSocial: "X", tipo: 33, desde: 1, hasta: 10, fechaAutorizacion: "2026-11-01" });
    expect(() => verifyCafSignature(parseEmbeddedCaf(xml), options.trusted)).not.toThrow();
  });

  test("bad values are refused with the option's name", () => {
    expect(() => parseServeArgs(["--port", "x"])).toThrow("--port");
    expect(() => parseServeArgs(["--xsd", "maybe"])).toThrow("--xsd");
    expect(() => parseServeArgs(["--environment", "prod"])).toThrow("--environment");
    expect(() => parseServeArgs(["--cross-check", "maybe"])).toThrow("--cross-check");
    expect(parseServeArgs(["--cross-check", "off"]).crossCheck).toBe("off");
    expect(() => parseServeArgs(["--nope", "1"])).toThrow("--nope");
    expect(() => parseServeArgs(["--trust-pem"])).toThrow("--trust-pem");
    expect(() => parseServeArgs(["--idk", "9999", "--trust-pem", "/a.pem"], () => pem)).toThrow("--idk 9999");
  });

  test("the sandbox's own authority never shares its IDK with a trusted one (CAFs name their authority by IDK)", () => {
    expect(parseServeArgs(["--trust-pem", "/a.pem"], () => pem).idk).toBe(10000);
  });
});

test("serve.ts --trust-pem starts and says which authorities it trusts", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sandbox-trust-"));
  writeFileSync(join(dir, "authority.pem"), pem);
  const child = Bun.spawn([process.execPath, fileURLToPath(new URL("./serve.ts", import.meta.url)), "--port", "0", "--trust-pem", join(dir, "authority.pem")], { stdout: "pipe", stderr: "pipe" });
  try {
    const reader = child.stdout.getReader();
    let out = "";
    while (!out.includes("trusting")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    expect(out).toMatch(/SII sandbox on http:\/\/127\.0\.0\.1:\d+ \(IDK 10000\)/);
    expect(out).toContain("trusting CAF authorities 9999");
  } finally {
    child.kill();
    await child.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);

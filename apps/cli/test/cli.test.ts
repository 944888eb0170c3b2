/**
 * The CLI as users run it: `node bin/run.js …` (and `bun bin/run.js …`) against the real server started
 * in this process, with an isolated config directory per scenario.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RealServer, startRealServer } from "../../../packages/sdk/test/support/real-server.js";
import { closedPort } from "../../../packages/sdk/test/support/recording-server.js";
import { ensureBuilt, freshHome, removeFreshHomes, runCli, type Runtime } from "./support/run-cli.js";

afterAll(removeFreshHomes);

beforeAll(() => ensureBuilt(), 120_000);

const started = await startRealServer();
const server: RealServer | undefined = "unavailable" in started ? undefined : started;
if (!server) console.log(`[skip] CLI end-to-end: ${(started as { unavailable: string }).unavailable}`);
afterAll(() => server?.stop());
const api = server?.baseUrl ?? "";
/** Nothing listens there: connection refused. */
const deadApi = `http://127.0.0.1:${await closedPort()}/v1`;

/** Registers a user directly (the CLI has no register command) and returns its credentials. */
async function account() {
  const email = `cli-${crypto.randomUUID()}@example.com`;
  const password = "una clave bien larga";
  const response = await fetch(`${api}/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, nombre: "Cli User" }),
  });
  expect(response.status).toBe(201);
  return { email, password };
}

const BUSINESS_FLAGS = ["--razon-social", "Café Austral SpA", "--giro", "Cafetería", "--acteco", "561000", "--direccion", "Av. Providencia 1234", "--comuna", "Providencia"];

test("--help lists the topics (node and bun)", async () => {
  for (const runtime of ["node", "bun"] as Runtime[]) {
    const result = await runCli(["--help"], { runtime, home: freshHome() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("businesses");
    expect(result.stdout).toContain("login");
  }
});

test("no credential: says how to log in, exit 3, also as --json", async () => {
  const home = freshHome();
  const human = await runCli(["businesses", "list", "--api-url", deadApi], { home });
  expect(human.code).toBe(3);
  expect(human.stderr).toContain("Run `timbre login` or set TIMBRE_API_KEY");
  const json = await runCli(["businesses", "list", "--json", "--api-url", deadApi], { home });
  expect(json.code).toBe(3);
  expect(json.json).toMatchObject({ error: { code: "NOT_LOGGED_IN" } });
});

test("unreachable API: exit 5 with a hint", async () => {
  const result = await runCli(["rut", "validate", "1-9", "--api-url", deadApi], {
    home: freshHome(),
    env: { TIMBRE_API_KEY: "sk_test_x" },
  });
  expect(result.code).toBe(5);
  expect(result.stderr).toContain("TIMBRE_API_URL");
});

test("usage errors exit 2", async () => {
  const result = await runCli(["dte", "emit", "--api-url", deadApi], { home: freshHome(), env: { TIMBRE_API_KEY: "sk_test_x" } });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("--item");
});

describe.skipIf(!server)("against the real server", () => {
  test("login stores a 0600 session; businesses create/list/show/use; logout", async () => {
    const home = freshHome();
    const { email, password } = await account();
    const login = await runCli(["login", "--email", email, "--password", password, "--api-url", api], { home });
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`Logged in as ${email}`);
    const configFile = join(home, ".config/timbre/config.json");
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(configFile, "utf8"));
    expect(stored.apiUrl).toBe(api);
    expect(stored.session.email).toBe(email);

    const created = await runCli(["businesses", "create", "--rut", "76192083-9", ...BUSINESS_FLAGS, "--json"], { home });
    expect(created.code).toBe(0);
    const business = created.json as { id: string; rut: string };
    expect(business.id).toMatch(/^biz_/);

    const list = await runCli(["businesses", "list"], { home });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("76192083-9");
    expect(list.stdout).toContain("Café Austral SpA");

    const listJson = await runCli(["businesses", "list", "--json"], { home, runtime: "bun" });
    expect(listJson.code).toBe(0);
    expect((listJson.json as { data: Array<{ id: string }> }).data.map((b) => b.id)).toEqual([business.id]);

    const use = await runCli(["businesses", "use", business.id], { home });
    expect(use.code).toBe(0);
    const show = await runCli(["businesses", "show", "--json"], { home });
    expect((show.json as { id: string }).id).toBe(business.id);

    const update = await runCli(["businesses", "update", "--giro", "Pastelería", "--json"], { home });
    expect((update.json as { giro: string }).giro).toBe("Pastelería");
    const sii = await runCli(["businesses", "update", "--unidad-sii", "Santiago Oriente", "--sucursal-sii", "81303347"], { home });
    expect(sii.code).toBe(0);
    expect(sii.stdout).toMatch(/unidad_sii:\s+Santiago Oriente/);
    expect(sii.stdout).toMatch(/sucursal_sii:\s+81303347/);

    const logout = await runCli(["logout"], { home });
    expect(logout.code).toBe(0);
    const after = await runCli(["businesses", "list"], { home });
    expect(after.code).toBe(3);
  }, 60_000);

  test("an expiring session is refreshed and stored again; a dead refresh token asks to log in", async () => {
    const home = freshHome();
    const { email, password } = await account();
    await runCli(["login", "--email", email, "--password", password, "--api-url", api], { home });
    const configFile = join(home, ".config/timbre/config.json");
    const before = JSON.parse(readFileSync(configFile, "utf8"));
    before.session.expiresAt = new Date(Date.now() - 1000).toISOString();
    writeFileSync(configFile, JSON.stringify(before));

    const whoami = await runCli(["whoami", "--json"], { home });
    expect(whoami.code).toBe(0);
    expect(whoami.json).toMatchObject({ user: { email }, auth: { type: "session" } });
    const after = JSON.parse(readFileSync(configFile, "utf8"));
    expect(after.session.refreshToken).not.toBe(before.session.refreshToken);
    expect(Date.parse(after.session.expiresAt)).toBeGreaterThan(Date.now());
    expect(statSync(configFile).mode & 0o777).toBe(0o600);

    // Presenting the old (rotated) refresh token revokes the login: the CLI says to log in again.
    writeFileSync(configFile, JSON.stringify(before));
    const dead = await runCli(["whoami"], { home });
    expect(dead.code).toBe(3);
    expect(dead.stderr).toContain("session has expired");
    expect(JSON.parse(readFileSync(configFile, "utf8")).session).toBeUndefined();
  }, 30_000);

  test("wrong password: exit 3 and a clear message", async () => {
    const { email } = await account();
    const result = await runCli(["login", "--email", email, "--password", "no es la clave", "--api-url", api], { home: freshHome() });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("Wrong email or password");
  });

  test("validation error lists the issues; not found exits 4", async () => {
    const home = freshHome();
    const { email, password } = await account();
    await runCli(["login", "--email", email, "--password", password, "--api-url", api], { home });
    const invalid = await runCli(["businesses", "create", "--rut", "76192083-1", ...BUSINESS_FLAGS], { home });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("rut:");
    expect(invalid.stderr).toContain("[VALIDATION_ERROR]");
    // several problems: counted, each listed once with its message
    const several = await runCli(["businesses", "create", "--rut", "76192083-1", ...BUSINESS_FLAGS, "--email", "not-an-email"], { home });
    expect(several.code).toBe(1);
    expect(several.stderr).toContain("The request has 2 problems [VALIDATION_ERROR]:");
    expect(several.stderr.match(/• rut: /g)).toHaveLength(1);
    expect(several.stderr).toContain("• email: ");
    const invalidJson = await runCli(["businesses", "create", "--rut", "76192083-1", ...BUSINESS_FLAGS, "--json"], { home });
    expect(invalidJson.json).toMatchObject({ error: { code: "VALIDATION_ERROR", status: 422 } });
    const missing = await runCli(["businesses", "show", "biz_00000000000000000000000000"], { home });
    expect(missing.code).toBe(4);
  }, 30_000);

  test("tokens create → TIMBRE_API_KEY → rut validate (node and bun), exit 1 on an invalid RUT", async () => {
    const home = freshHome();
    const { email, password } = await account();
    await runCli(["login", "--email", email, "--password", password, "--api-url", api], { home });
    const created = await runCli(["businesses", "create", "--rut", "76192083-9", ...BUSINESS_FLAGS, "--json"], { home });
    const businessId = (created.json as { id: string }).id;
    const token = await runCli(["tokens", "create", "--name", "cli", "--permission", "*", "--business", businessId, "--json"], { home });
    expect(token.code).toBe(0);
    const key = (token.json as { key: string }).key;
    expect(key).toMatch(/^sk_test_/);

    const keyHome = freshHome();
    const env = { TIMBRE_API_KEY: key, TIMBRE_API_URL: api };
    for (const runtime of ["node", "bun"] as Runtime[]) {
      const valid = await runCli(["rut", "validate", "76.192.083-9", "--json"], { home: keyHome, env, runtime });
      expect(valid.code).toBe(0);
      expect(valid.json).toMatchObject({ valid: true, rut: "76192083-9", formateado: "76.192.083-9" });
    }
    const invalid = await runCli(["rut", "validate", "76192083-1"], { home: keyHome, env });
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toContain("dv_esperado");

    const whoami = await runCli(["whoami", "--json"], { home: keyHome, env });
    expect(whoami.json).toMatchObject({ auth: { type: "api_key" } });
    const tokens = await runCli(["tokens", "list", "--json"], { home: keyHome, env });
    expect((tokens.json as { data: unknown[] }).data.length).toBeGreaterThanOrEqual(1);
  }, 60_000);
});

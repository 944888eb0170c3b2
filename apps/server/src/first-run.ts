/**
 * First run: on an empty embedded database, a sandbox account — demo user, a business with a
 * generated test certificate, an `sk_test_` key with every permission and (in sandbox mode) sandbox CAFs for every
 * supported tipo — so that `npm start` can emit at once; the banner prints a ready-to-paste `curl` that does.
 */
import { count, eq } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import { generateTestCertificate } from "@timbre/core/testing";
import { users } from "./db/users.js";
import type { Deps } from "./deps.js";
import { PERMISSIONS, type Credential } from "./http/credential.js";
import { hashPassword } from "./modules/auth/passwords.js";
import { createBusiness } from "./modules/businesses/create-business.js";
import { uploadCertificate } from "./modules/businesses/upload-certificate.js";
import { issueSandboxNumeration } from "./modules/numerations/issue-sandbox-numeration.js";
import { SUPPORTED_TIPOS } from "./modules/numerations/schemas.js";
import { createApiKey } from "./modules/tokens/create-api-key.js";
import { newId } from "./ids.js";

export interface SandboxAccount {
  email: string;
  password: string;
  businessId: string;
  apiKey: string;
  /** Tipos that received sandbox CAFs (empty outside sandbox mode). */
  cafTipos: number[];
}

/** Folios per sandbox CAF of the first run. */
export const FIRST_RUN_FOLIOS = 1000;

export const DEMO_EMAIL = "demo@timbre.local";
const DEMO_RUT = "76192083-9";

/** Whether the first run's sandbox account is still there (later starts say where to sign in). */
export async function hasSandboxAccount(deps: Deps): Promise<boolean> {
  const [row] = await deps.db.select({ n: count() }).from(users).where(eq(users.email, DEMO_EMAIL));
  return (row?.n ?? 0) > 0;
}

/** Creates the account when the database has no user yet; returns `null` otherwise. */
export async function ensureSandboxAccount(deps: Deps): Promise<SandboxAccount | null> {
  const [existing] = await deps.db.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) return null;
  const now = deps.now();
  const password = randomBytes(12).toString("base64url");
  const userId = newId("user");
  await deps.db.insert(users).values({ id: userId, email: DEMO_EMAIL, passwordHash: await hashPassword(password), nombre: "Demo", createdAt: now, updatedAt: now });
  const session: Credential = { type: "session", userId, businessId: null, environment: "test", permissions: [...PERMISSIONS] };
  const business = await createBusiness(deps, session, {
    rut: DEMO_RUT,
    razon_social: "Empresa Demo SpA",
    giro: "Servicios de desarrollo de software",
    acteco: [620200],
    direccion: "Av. Apoquindo 1234",
    comuna: "Las Condes",
    ciudad: "Santiago",
  });
  const certPassword = randomBytes(9).toString("base64url");
  const cert = await generateTestCertificate({
    rut: "11111111-1",
    name: "USUARIO DEMO",
    validFrom: new Date(now.getTime() - 24 * 3600 * 1000),
    validTo: new Date(now.getTime() + 365 * 24 * 3600 * 1000),
    password: certPassword,
  });
  await uploadCertificate(deps, session, business.id, { bytes: cert.p12, password: certPassword });
  const key = await createApiKey(deps, session, { name: "sandbox", permissions: ["*"], environment: "test", business_id: business.id });
  const cafTipos: number[] = [];
  if (deps.config.siiMode === "sandbox") {
    for (const tipo of SUPPORTED_TIPOS) {
      await issueSandboxNumeration(deps, { businessId: business.id, environment: "test" }, { tipo, cantidad: FIRST_RUN_FOLIOS });
      cafTipos.push(tipo);
    }
  }
  return { email: DEMO_EMAIL, password, businessId: business.id, apiKey: key.key, cafTipos };
}

/** A complete, valid factura electrónica (33) request for `POST /v1/dte/emit` (API.md §6.3). */
export function exampleInvoice() {
  return {
    tipo: 33,
    receptor: {
      rut: "96790240-3",
      razon_social: "Cliente de Prueba Ltda.",
      giro: "Comercio al por menor",
      direccion: "Av. Libertador Bernardo OHiggins 1449",
      comuna: "Santiago",
    },
    items: [
      { nombre: "Desarrollo de software", cantidad: 1, precio: 850000 },
      { nombre: "Soporte mensual", cantidad: 2, precio: 45000, unidad: "mes" },
    ],
    forma_pago: 1,
  };
}

/** The text printed once at first start. */
export function sandboxBanner(account: SandboxAccount, port: number): string {
  const base = `http://localhost:${port}/v1`;
  return [
    "",
    "  Sandbox account created (first run):",
    `    dashboard login  ${account.email} / ${account.password}`,
    `    business         ${account.businessId} (test certificate installed)`,
    `    test API key     ${account.apiKey}   (shown once; store it)`,
    account.cafTipos.length > 0
      ? `    sandbox CAFs     tipos ${account.cafTipos.join(", ")} (${FIRST_RUN_FOLIOS} folios each)`
      : "    sandbox CAFs     none (SII_MODE is not sandbox: upload your CAFs)",
    "",
    `  Try it:  curl -H "X-API-Key: ${account.apiKey}" ${base}/businesses`,
    "",
    "  Emit an invoice:",
    `    curl -X POST ${base}/dte/emit \\`,
    `      -H "X-API-Key: ${account.apiKey}" \\`,
    `      -H "Content-Type: application/json" \\`,
    `      -d '${JSON.stringify(exampleInvoice())}'`,
    `  or sign in to the dashboard, http://localhost:${port}/dashboard, and press «Emitir documento».`,
    "",
    `  Docs:    ${base}/docs`,
    "",
  ].join("\n");
}

/**
 * The lines printed at every start: where the API, its docs and the dashboard are, and how to get an API key — the
 * first run's is printed once in `sandboxBanner`, so later starts say how to create one.
 */
export function startBanner(port: number, firstRun: SandboxAccount | null, sandboxAccount = false): string {
  const origin = `http://localhost:${port}`;
  return [
    "",
    "  Timbre is running:",
    `    API        ${origin}/v1`,
    `    docs       ${origin}/v1/docs  (OpenAPI: ${origin}/v1/openapi.json)`,
    `    dashboard  ${origin}/dashboard`,
    ...(firstRun
      ? [`    API key    the test key printed above (shown once); more in the dashboard, ${origin}/dashboard/claves`]
      : [
          ...(sandboxAccount ? [`    sign in    ${DEMO_EMAIL} (the sandbox account; its password was printed at the first start)`] : []),
          `    API key    create one in the dashboard, ${origin}/dashboard/claves (first account: ${origin}/dashboard/registro),`,
          `               or with the CLI: timbre login --api-url ${origin} && timbre tokens create --name mi-clave --permission '*'`,
        ]),
    "",
  ].join("\n");
}

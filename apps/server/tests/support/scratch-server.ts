/**
 * A real server process on a scratch database (a fresh PostgreSQL database when DATABASE_URL is set, else the
 * embedded one in a fresh data folder), with one user owning a business and an all-permission key per RUT.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { http } from "./cluster.js";
import { startServer, type ServerProcess } from "./server-process.js";

export interface ScratchServer {
  server: ServerProcess;
  /** API key of each business, by RUT. */
  keys: Map<string, string>;
  /** Stops the server and drops its database and folder. */
  close(): Promise<void>;
}

export async function startScratchServer(ruts: string[], env: Record<string, string> = {}): Promise<ScratchServer> {
  const base = process.env.DATABASE_URL;
  const name = `timbre_scratch_${randomBytes(5).toString("hex")}`;
  const dir = mkdtempSync(join(tmpdir(), "timbre-scratch-"));
  const full: Record<string, string> = {
    TIMBRE_DATA_DIR: dir,
    TIMBRE_MASTER_KEY: randomBytes(32).toString("base64"),
    TIMBRE_JWT_SECRET: randomBytes(32).toString("base64"),
    TIMBRE_WORKERS: "false",
    ...env,
  };
  if (base) {
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    full.DATABASE_URL = url.toString();
  }
  const server = await startServer(full, 90_000);
  const close = async () => {
    await server.stop();
    if (base) {
      const admin = postgres(base, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const reg = await http(server.url, "POST", "/v1/auth/register", { body: { email: `scratch_${randomBytes(4).toString("hex")}@example.com`, password: "0123456789ab", nombre: "Scratch" } });
    const token = reg.json.data.access_token as string;
    const keys = new Map<string, string>();
    for (const rut of ruts) {
      const biz = await http(server.url, "POST", "/v1/businesses", { token, body: { rut, razon_social: `Empresa ${rut} SpA`, giro: "Software", acteco: [620200], direccion: "Av. Uno 1", comuna: "Santiago" } });
      const key = await http(server.url, "POST", "/v1/tokens", { token, body: { name: "scratch", permissions: ["*"], business_id: biz.json.data.id } });
      keys.set(rut, key.json.data.key as string);
    }
    return { server, keys, close };
  } catch (error) {
    await close();
    throw error;
  }
}

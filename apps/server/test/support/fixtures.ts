/** Small builders over the API, so tests read as scenarios. */
import { expect } from "bun:test";
import type { Harness } from "./harness.js";

let counter = 0;

export async function signUp(h: Harness, email = `user${++counter}_${Date.now()}@example.com`): Promise<{ token: string; refresh: string; userId: string; email: string; password: string }> {
  const password = "correct horse battery";
  const res = await h.call("POST", "/v1/auth/register", { body: { email, password, nombre: "Test User" } });
  expect(res.status).toBe(201);
  return { token: res.json.data.access_token, refresh: res.json.data.refresh_token, userId: res.json.data.user.id, email, password };
}

export const VALID_RUTS = ["76192083-9", "60803000-K", "11111111-1", "22222222-2", "77777777-7", "96790240-3"];

export function businessBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    rut: "76192083-9",
    razon_social: "Comercial Ejemplo SpA",
    giro: "Venta de software",
    acteco: [620200],
    direccion: "Av. Providencia 123",
    comuna: "Providencia",
    ...overrides,
  };
}

export async function createBusiness(h: Harness, token: string, overrides: Record<string, unknown> = {}): Promise<{ id: string; [k: string]: unknown }> {
  const res = await h.call("POST", "/v1/businesses", { token, body: businessBody(overrides) });
  expect(res.status).toBe(201);
  return res.json.data;
}

export async function createKey(
  h: Harness,
  token: string,
  businessId: string,
  permissions: string[] = ["*"],
  environment: "test" | "live" = "test",
): Promise<{ id: string; key: string }> {
  const res = await h.call("POST", "/v1/tokens", { token, body: { name: "test key", permissions, environment, business_id: businessId } });
  expect(res.status).toBe(201);
  return { id: res.json.data.id, key: res.json.data.key };
}

/** A user with one business and a full-permission test key. */
export async function tenant(h: Harness, rut = "76192083-9") {
  const user = await signUp(h);
  const business = await createBusiness(h, user.token, { rut });
  const key = await createKey(h, user.token, business.id);
  return { user, business, key };
}

export function expectError(res: { status: number; json: { error?: { code?: string } } }, status: number, code: string): void {
  expect({ status: res.status, code: res.json?.error?.code }).toEqual({ status, code });
}

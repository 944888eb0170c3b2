/** Non-secret preferences kept across visits in localStorage: the chosen business and environment. */
import type { Environment } from "@timbre/sdk";

const BUSINESS_KEY = "timbre.business";
const ENV_KEY = "timbre.environment";

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* ignore */
  }
}

export const prefs = {
  businessId: (): string | null => read(BUSINESS_KEY),
  setBusinessId: (id: string | null): void => write(BUSINESS_KEY, id),
  environment: (): Environment => (read(ENV_KEY) === "live" ? "live" : "test"),
  setEnvironment: (env: Environment): void => write(ENV_KEY, env),
};

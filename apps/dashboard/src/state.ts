/** App-wide state: the businesses of the user, the selected business and environment (sent as headers). */
import type { Business, Environment } from "@timbre/sdk";
import { api } from "./lib/api.js";
import { prefs } from "./lib/prefs.js";

let businesses: Business[] = [];
export type Change = "selection" | "list";
const listeners = new Set<(change: Change) => void>();

export const state = {
  businesses: (): Business[] => businesses,
  business: (): Business | null => businesses.find((b) => b.id === prefs.businessId()) ?? null,
  environment: (): Environment => prefs.environment(),
  onChange(listener: (change: Change) => void): void {
    listeners.add(listener);
  },
  setBusiness(id: string | null): void {
    prefs.setBusinessId(id);
    notify("selection");
  },
  setEnvironment(env: Environment): void {
    prefs.setEnvironment(env);
    notify("selection");
  },
  /** Reloads the list (up to 100 businesses) and keeps the selection valid. */
  async reloadBusinesses(): Promise<void> {
    businesses = (await api.list<Business>("/businesses", { limit: 100 })).data;
    const selected = prefs.businessId();
    if (!businesses.some((b) => b.id === selected)) prefs.setBusinessId(businesses[0]?.id ?? null);
    notify("list");
  },
  /** Adds or replaces a business in the list (never keeping a webhook secret); `select` makes it current. */
  upsertBusiness(b: Business, select = false): void {
    const { webhook_secret: _secret, ...clean } = b;
    const i = businesses.findIndex((x) => x.id === b.id);
    if (i >= 0) businesses[i] = clean;
    else businesses.push(clean);
    if (select || !prefs.businessId()) prefs.setBusinessId(b.id);
    notify("list");
  },
  reset(): void {
    businesses = [];
  },
};

function notify(change: Change): void {
  for (const listener of listeners) listener(change);
}

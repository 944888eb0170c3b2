/** The receptor's fields as flags (`--receptor-giro …`), shared by `dte emit` (quick documents) and `dte anular` (overrides). */
import { Flags } from "@oclif/core";
import type { Receptor } from "@timbre/sdk";

export const receptorFieldFlags = {
  "receptor-giro": Flags.string({ description: "receptor's line of business (facturas and notes)" }),
  "receptor-direccion": Flags.string({ description: "receptor's address (facturas and notes)" }),
  "receptor-comuna": Flags.string({ description: "receptor's comuna (facturas and notes)" }),
  "receptor-ciudad": Flags.string({ description: "receptor's city" }),
  "receptor-email": Flags.string({ description: "receptor's e-mail" }),
};

const FIELDS = ["razon_social", "giro", "direccion", "comuna", "ciudad", "email"] as const;

/** The receptor fields given as flags (`receptor-razon-social`, `receptor-giro`, …), only those present. */
export function receptorFromFlags(flags: Partial<Record<string, unknown>>): Partial<Receptor> {
  const receptor: Partial<Receptor> = {};
  for (const field of FIELDS) {
    const value = flags[`receptor-${field.replace("_", "-")}`];
    if (typeof value === "string") receptor[field] = value;
  }
  return receptor;
}

/** The fields of `known` that `given` lacks (names of those taken, and the merged receptor). */
export function fillReceptor(given: Partial<Receptor>, known: { [K in keyof Receptor]?: Receptor[K] | null }): { receptor: Partial<Receptor>; taken: string[] } {
  const receptor = { ...given };
  const taken: string[] = [];
  for (const field of FIELDS) {
    const value = known[field];
    if (receptor[field] === undefined && value) {
      receptor[field] = value;
      taken.push(field);
    }
  }
  return { receptor, taken };
}

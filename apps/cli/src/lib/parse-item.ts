import type { DteItem } from "@timbre/sdk";

/**
 * Parses a quick line item `nombre:cantidad:precio[:exento]`, e.g. `Café:2:1500`. The name may itself
 * contain colons; the numbers are taken from the right.
 */
export function parseItem(spec: string): DteItem {
  const parts = spec.split(":");
  const exento = parts.at(-1)?.toLowerCase() === "exento";
  if (exento) parts.pop();
  if (parts.length < 3) throw new Error(`Invalid --item "${spec}": expected "nombre:cantidad:precio", e.g. "Café:2:1500".`);
  const precio = Number(parts.pop());
  const cantidad = Number(parts.pop());
  const nombre = parts.join(":").trim();
  if (!nombre || !Number.isFinite(cantidad) || cantidad <= 0 || !Number.isFinite(precio) || precio < 0) {
    throw new Error(`Invalid --item "${spec}": the name must be non-empty, cantidad > 0 and precio ≥ 0.`);
  }
  return { nombre, cantidad, precio, ...(exento ? { exento: true } : {}) };
}

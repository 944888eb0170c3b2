import type { DteItem } from "@timbre/sdk";

/** A trailing option of a quick item: `exento`, or `imp=CODE` (`impuesto=CODE`) for an additional tax. */
const TAX_OPTION = /^(?:imp|impuesto)=(\d{1,3})$/i;

/**
 * Parses a quick line item `nombre:cantidad:precio[:exento][:imp=CODE]`, e.g. `Café:2:1500`, `Libro:1:12990:exento`
 * or `Pisco 35°:2:7990:imp=24` (ILA on spirits; the server says which codes exist and where they apply). The name may
 * itself contain colons; the numbers and options are taken from the right.
 *
 * @example
 * parseItem("Bebida cola 3 L:24:1890:imp=271"); // { nombre: "Bebida cola 3 L", cantidad: 24, precio: 1890, impuesto_adicional: 271 }
 */
export function parseItem(spec: string): DteItem {
  const parts = spec.split(":");
  let exento = false;
  let impuesto: number | undefined;
  for (;;) {
    const last = parts.at(-1)?.trim() ?? "";
    const tax = TAX_OPTION.exec(last);
    if (last.toLowerCase() === "exento" && !exento) exento = true;
    else if (tax && impuesto === undefined) impuesto = Number(tax[1]);
    else break;
    parts.pop();
  }
  if (parts.length < 3) throw new Error(`Invalid --item "${spec}": expected "nombre:cantidad:precio", e.g. "Café:2:1500".`);
  const precio = Number(parts.pop());
  const cantidad = Number(parts.pop());
  const nombre = parts.join(":").trim();
  if (!nombre || !Number.isFinite(cantidad) || cantidad <= 0 || !Number.isFinite(precio) || precio < 0) {
    throw new Error(`Invalid --item "${spec}": the name must be non-empty, cantidad > 0 and precio ≥ 0.`);
  }
  return { nombre, cantidad, precio, ...(exento ? { exento: true } : {}), ...(impuesto === undefined ? {} : { impuesto_adicional: impuesto }) };
}

/** The words of a printed line every tipo shares: quantity, unit, name (with its code), description, unit price. */
import { formatNumber } from "./format.js";

/**
 * @example
 * itemText({ nombre: "Trigo", cantidad: 2, precio: 5000, codigo: "T1" }) // { cantidad: "2", unidad: "", nombre: "T1 - Trigo", … }
 */
export function itemText(item: { nombre: string; cantidad: number | string; precio: number | string; unidad?: string; descripcion?: string; codigo?: string }) {
  return {
    cantidad: formatNumber(item.cantidad),
    unidad: item.unidad ?? "",
    nombre: item.codigo ? `${item.codigo} - ${item.nombre}` : item.nombre,
    descripcion: item.descripcion ?? "",
    precio: formatNumber(item.precio),
  };
}

// The quick `--item` of `dte emit`, without a server (what the server makes of the line is its own business).
import { expect, test } from "bun:test";
import { parseItem } from "../src/lib/parse-item.js";

test("nombre:cantidad:precio, the name may hold colons; exento and imp=CODE from the right, in either order", () => {
  expect(parseItem("Café:2:1500")).toEqual({ nombre: "Café", cantidad: 2, precio: 1500 });
  expect(parseItem("Hora 10:30:1:25000")).toEqual({ nombre: "Hora 10:30", cantidad: 1, precio: 25000 });
  expect(parseItem("Libro:1:12990:exento")).toEqual({ nombre: "Libro", cantidad: 1, precio: 12990, exento: true });
  expect(parseItem("Pisco 35°:2:7990:imp=24")).toEqual({ nombre: "Pisco 35°", cantidad: 2, precio: 7990, impuesto_adicional: 24 });
  expect(parseItem("Bebida:24:1890:IMPUESTO=271:exento")).toEqual({ nombre: "Bebida", cantidad: 24, precio: 1890, impuesto_adicional: 271, exento: true });
});

test("a missing number, a bad amount or a repeated option is refused with the expected shape", () => {
  expect(() => parseItem("Café:1500")).toThrow('expected "nombre:cantidad:precio"');
  expect(() => parseItem("Café:0:1500")).toThrow("cantidad > 0");
  expect(() => parseItem("Café:1:-5")).toThrow("precio ≥ 0");
  expect(() => parseItem(":1:5")).toThrow("non-empty");
  // the second imp= is not an option but the price: not a number
  expect(() => parseItem("Café:1:imp=24:imp=27")).toThrow("precio ≥ 0");
  expect(() => parseItem("Café:1:5:imp=")).toThrow("precio ≥ 0");
});
